/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the sandbox runs in plain Node, never inside n8n */
import { createJournal, Journal, readJournal } from './journal';
import { Store, type Change, type StateDocument } from './store';

/**
 * The data file, an append-only journal (journal.ts): loaded at start; each save appends one line with the
 * records changed since the last one (at once after a request, shortly after for changes made by timers), so
 * a save costs what it changed, not the size of the state. When the journal has grown past COMPACT_FACTOR
 * times the live records, it is rewritten with one line per live record. Without a data file the state lives
 * in memory only, and a save only checks that the changes can be written.
 */

const BACKGROUND_SAVE_DELAY_MS = 100;
/** The journal is compacted once it is this many times the size of the live records... */
const COMPACT_FACTOR = 2;
/** ...and at least this large. */
export const DEFAULT_COMPACT_MIN_BYTES = 1024 * 1024;

export interface PersistenceOptions {
	/** Where state is kept across restarts; in memory only when omitted. */
	dataFile?: string;
	clock: () => number;
	/** Runs before each save: drops what need not be kept. */
	beforeSave?: (nowMs: number) => void;
	/** Where failures of background saves and compactions are reported. */
	onError?: (error: unknown) => void;
	/** The smallest journal that is compacted; default 1 MiB. */
	compactMinBytes?: number;
}

export class Persistence {
	private timer: NodeJS.Timeout | undefined;
	/** The size of each live record's line, and their sum: what a compacted journal would hold. */
	private readonly sizes = new Map<string, number>();
	private liveBytes = 0;

	private constructor(
		readonly store: Store,
		private readonly journal: Journal | undefined,
		private readonly options: PersistenceOptions,
	) {
		for (const change of store.records()) this.noteSize(change, entryText(change));
	}

	/** The state in the data file, or an empty one (also when there is no data file). */
	static open(options: PersistenceOptions): Persistence {
		const { dataFile } = options;
		if (!dataFile) return new Persistence(new Store(), undefined, options);
		const contents = readJournal(dataFile);
		if (contents?.kind === 'journal') {
			const store = new Store();
			for (const line of contents.lines) {
				for (const [collection, id, record] of JSON.parse(line) as Entry[]) {
					store.apply({ collection, id, record: record ?? undefined });
				}
			}
			store.commit();
			return new Persistence(store, new Journal(dataFile, contents.bytes), options);
		}
		// A new data file, or one of version 1 (one JSON document), rewritten as a journal.
		const store = contents ? Store.fromDocument(contents.document as StateDocument) : new Store();
		return new Persistence(store, createJournal(dataFile, snapshot(store)), options);
	}

	/**
	 * Appends what changed to the journal now. A change that cannot be written (or, in memory, serialised) is
	 * undone and the error thrown: the state never holds what a restart would not find, and never anything
	 * that would make every later save fail.
	 */
	save(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		let written: Array<{ change: Change; text: string }> = [];
		let saved = false;
		try {
			this.options.beforeSave?.(this.options.clock());
			written = this.store.changes().map((change) => ({ change, text: entryText(change) }));
			if (written.length > 0) {
				this.journal?.append(`[${written.map(({ text }) => text).join(',')}]\n`);
			}
			this.store.commit();
			saved = true;
		} finally {
			if (!saved) this.store.rollback();
		}
		for (const { change, text } of written) this.noteSize(change, text);
		this.compactIfLarge();
	}

	/** Saves now if anything changed. */
	saveIfChanged(): void {
		if (this.store.dirty) this.save();
	}

	/** Undoes every change since the last save (a request that failed leaves nothing behind). */
	discard(): void {
		this.store.rollback();
	}

	/** Saves shortly: changes made by timers (status changes, delivery attempts) in one line. */
	saveSoon(): void {
		if (this.timer) return;
		this.timer = setTimeout(() => {
			this.timer = undefined;
			this.saveInBackground();
		}, BACKGROUND_SAVE_DELAY_MS);
	}

	/** Saves changes made outside a request; one that cannot be saved is undone and reported, not thrown. */
	saveInBackground(): void {
		try {
			this.saveIfChanged();
		} catch (error) {
			this.options.onError?.(error);
		}
	}

	/** Saves what is left and closes the data file. */
	close(): void {
		this.save();
		this.journal?.close();
	}

	private noteSize(change: Change, text: string): void {
		if (!this.journal) return;
		const key = `${change.collection}/${change.id}`;
		this.liveBytes -= this.sizes.get(key) ?? 0;
		if (change.record) {
			this.sizes.set(key, text.length + 3);
			this.liveBytes += text.length + 3;
		} else {
			this.sizes.delete(key);
		}
	}

	private compactIfLarge(): void {
		const journal = this.journal;
		const minBytes = this.options.compactMinBytes ?? DEFAULT_COMPACT_MIN_BYTES;
		if (!journal || journal.size < Math.max(minBytes, COMPACT_FACTOR * this.liveBytes)) return;
		try {
			journal.rewrite(snapshot(this.store));
		} catch (error) {
			// The journal as it was is still whole and still appended to.
			this.options.onError?.(error);
		}
	}
}

/** One record in a journal line: collection, id, the record (null: removed). */
type Entry = [Change['collection'], string, object | null];

function entryText({ collection, id, record }: Change): string {
	return JSON.stringify([collection, id, record ?? null] satisfies Entry);
}

/** The live records, one journal line each. */
function* snapshot(store: Store): Iterable<string> {
	for (const change of store.records()) yield `[${entryText(change)}]\n`;
}
