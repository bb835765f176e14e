/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the sandbox runs in plain Node, never inside n8n */
import { DataFileLock } from './data-lock';
import { createJournal, Journal, readJournal, removeLeftovers } from './journal';
import { Store, type Change, type StateDocument } from './store';

/**
 * The data file, an append-only journal (journal.ts): loaded at start; each save appends one line with the
 * records changed since the last one (at once after a request, shortly after for changes made by timers), so
 * a save costs what it changed, not the size of the state. When the journal has grown past COMPACT_FACTOR
 * times the live records, it is rewritten with one line per live record, in the background: from a snapshot
 * of the state at that moment (store.ts's `freeze`), followed by the lines saved meanwhile. Without a data
 * file the state lives in memory only, and a save only checks that the changes can be written.
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
	/** Where failures of background saves are reported. */
	onError?: (error: unknown) => void;
	/** Where what goes wrong with the data file itself is reported: a line that cannot be read, a compaction. */
	log?: (message: string) => void;
	/** The smallest journal that is compacted; default 1 MiB. */
	compactMinBytes?: number;
}

/** One record in a journal line: collection, id, the record (null: removed). */
type Entry = [Change['collection'], string, object | null];

export class Persistence {
	private timer: NodeJS.Timeout | undefined;
	/** The size of each live record's line, and their sum: what a compacted journal would hold. */
	private readonly sizes = new Map<string, number>();
	private liveBytes = 0;
	/** The compaction under way, and the lines saved since its snapshot (written after it). */
	private compaction: { done: Promise<void>; appended: string[] } | undefined;
	/** After a failed compaction, the next waits until the journal has grown this large. */
	private retryAtBytes = 0;
	/** Saves made so far: a change made before one was counted is in the data file (delivery-engine.ts). */
	private saves = 0;
	/** Set by `close()`: no compaction starts after it, so none outlives the data file's lock. */
	private closing = false;

	private constructor(
		readonly store: Store,
		private readonly journal: Journal | undefined,
		private readonly lock: DataFileLock | undefined,
		private readonly options: PersistenceOptions,
	) {}

	/** The state in the data file, or an empty one (also when there is no data file). */
	static async open(options: PersistenceOptions): Promise<Persistence> {
		const { dataFile } = options;
		if (!dataFile) return new Persistence(new Store(), undefined, undefined, options);
		const lock = DataFileLock.take(dataFile);
		let opened = false;
		try {
			// Ours alone now: what a compaction cut short by a crash left beside the data file goes.
			const removed = removeLeftovers(dataFile);
			if (removed > 0)
				options.log?.(
					`sandbox: removed ${removed} temporary file(s) an interrupted compaction left`,
				);
			const persistence = await Persistence.load(dataFile, lock, options);
			opened = true;
			return persistence;
		} finally {
			if (!opened) lock.release();
		}
	}

	/** The data file's state: its journal replayed, or a new journal (of a version 1 file's state, or empty). */
	private static async load(
		dataFile: string,
		lock: DataFileLock,
		options: PersistenceOptions,
	): Promise<Persistence> {
		const contents = readJournal(dataFile);
		if (contents?.kind === 'journal') {
			const persistence = new Persistence(
				new Store(),
				new Journal(dataFile, contents.bytes),
				lock,
				options,
			);
			persistence.replay(contents.lines);
			return persistence;
		}
		// A new data file, or one of version 1 (one JSON document), rewritten as a journal.
		const store = contents ? Store.fromDocument(contents.document as StateDocument) : new Store();
		const journal = await createJournal(dataFile, snapshot(store.records()));
		const persistence = new Persistence(store, journal, lock, options);
		for (const change of store.records()) persistence.noteSize(change, entryText(change).length);
		return persistence;
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
				const line = `[${written.map(({ text }) => text).join(',')}]\n`;
				this.journal?.append(line);
				this.compaction?.appended.push(line);
			}
			this.store.commit();
			this.saves++;
			saved = true;
		} finally {
			if (!saved) this.store.rollback();
		}
		for (const { change, text } of written) this.noteSize(change, text.length);
		this.compactIfLarge();
	}

	/** How many saves were made so far. */
	get saveCount(): number {
		return this.saves;
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

	/**
	 * Saves changes made outside a request; one that cannot be saved is undone and reported, not thrown. Answers
	 * whether what changed is saved.
	 */
	saveInBackground(): boolean {
		try {
			this.saveIfChanged();
			return true;
		} catch (error) {
			this.options.onError?.(error);
			return false;
		}
	}

	/**
	 * Waits for a compaction under way, saves what is left (starting no other), closes the data file and gives
	 * up its lock: a compaction left running would rename its file over the one the next sandbox appends to.
	 */
	async close(): Promise<void> {
		this.closing = true;
		await this.compaction?.done;
		try {
			this.save();
		} finally {
			try {
				this.journal?.close();
			} finally {
				this.lock?.release();
			}
		}
	}

	/** Replays the journal's lines; a line that cannot be read is reported and skipped, the others kept. */
	private replay(lines: string[]): void {
		lines.forEach((line, index) => {
			const entries = parseLine(line);
			if (!entries) {
				// The header is line 1. The line itself is not shown: it may hold a webhook's secret.
				this.options.log?.(
					`sandbox: ${this.journal?.file}:${index + 2}: not a journal line (${line.length} characters), skipped; the lines before and after it are loaded`,
				);
				return;
			}
			// Each record's share of its line: what it would take in a compacted journal, near enough.
			const share = line.length / entries.length - 1;
			for (const [collection, id, record] of entries) {
				const change = { collection, id, record: record ?? undefined };
				this.store.apply(change);
				this.noteSize(change, share);
			}
		});
	}

	private noteSize(change: Change, textLength: number): void {
		if (!this.journal) return;
		const key = `${change.collection}/${change.id}`;
		this.liveBytes -= this.sizes.get(key) ?? 0;
		if (change.record) {
			this.sizes.set(key, textLength + 3);
			this.liveBytes += textLength + 3;
		} else {
			this.sizes.delete(key);
		}
	}

	private compactIfLarge(): void {
		const journal = this.journal;
		const minBytes = this.options.compactMinBytes ?? DEFAULT_COMPACT_MIN_BYTES;
		const threshold = Math.max(minBytes, COMPACT_FACTOR * this.liveBytes, this.retryAtBytes);
		if (!journal || this.closing || this.compaction || journal.size < threshold) return;
		const frozen = this.store.freeze();
		const appended: string[] = [];
		const done = journal
			.rewrite(snapshot(frozen.records), () => appended)
			.catch((error: unknown) => {
				// The journal as it was is still whole and still appended to; nothing is left beside it.
				this.retryAtBytes = journal.size + minBytes;
				this.options.log?.(
					`sandbox: the data file could not be compacted (it is kept as it is): ${String(error)}`,
				);
			})
			.finally(() => {
				frozen.release();
				this.compaction = undefined;
			});
		this.compaction = { done, appended };
	}
}

/** A journal line's entries, or undefined when it is not one. */
function parseLine(line: string): Entry[] | undefined {
	let entries: unknown;
	try {
		entries = JSON.parse(line);
	} catch {
		return undefined;
	}
	if (!Array.isArray(entries) || entries.length === 0) return undefined;
	return entries.every(isEntry) ? (entries as Entry[]) : undefined;
}

function isEntry(entry: unknown): boolean {
	if (!Array.isArray(entry) || entry.length !== 3) return false;
	const [collection, id, record] = entry as unknown[];
	return (
		typeof collection === 'string' &&
		Store.isChangedName(collection) &&
		typeof id === 'string' &&
		typeof record === 'object'
	);
}

function entryText({ collection, id, record }: Change): string {
	return JSON.stringify([collection, id, record ?? null] satisfies Entry);
}

/** Records, one journal line each. */
function* snapshot(records: Iterable<Change>): Iterable<string> {
	for (const change of records) yield `[${entryText(change)}]\n`;
}
