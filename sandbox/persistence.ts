/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the sandbox runs in plain Node, never inside n8n */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

import { Store, type StateDocument } from './store';

/**
 * The data file: the state is loaded from it at start and written to it after every change (at once after
 * a request, shortly after for changes made by timers, in one write). Without a data file the state lives
 * in memory only.
 */

const BACKGROUND_SAVE_DELAY_MS = 100;

export class Persistence {
	private timer: NodeJS.Timeout | undefined;

	constructor(
		readonly store: Store,
		private readonly dataFile: string | undefined,
		private readonly clock: () => number,
		/** Runs before each write: drops what need not be kept. */
		private readonly beforeSave: (nowMs: number) => void = () => undefined,
		private readonly onError: (error: unknown) => void = () => undefined,
	) {}

	/** The state in the data file, or an empty one (also when there is no data file). */
	static open(
		dataFile: string | undefined,
		clock: () => number,
		beforeSave?: (nowMs: number) => void,
		onError?: (error: unknown) => void,
	): Persistence {
		const document = dataFile ? loadStateFile(dataFile) : undefined;
		const store = document ? Store.fromDocument(document) : new Store();
		return new Persistence(store, dataFile, clock, beforeSave, onError);
	}

	/**
	 * Writes the data file now. A change that cannot be written (or, in memory, serialised) is undone and the
	 * error thrown: the state never holds what a restart would not find, and never anything that would make
	 * every later save fail.
	 */
	save(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		let saved = false;
		try {
			this.beforeSave(this.clock());
			if (this.dataFile) {
				saveStateFile(this.dataFile, this.store.toDocument(new Date(this.clock())));
			} else {
				for (const change of this.store.changes()) JSON.stringify(change.record);
			}
			this.store.commit();
			saved = true;
		} finally {
			if (!saved) this.store.rollback();
		}
	}

	/** Undoes every change since the last save (a request that failed leaves nothing behind). */
	discard(): void {
		this.store.rollback();
	}

	/** Writes the data file now if anything changed. */
	saveIfChanged(): void {
		if (this.store.dirty) this.save();
	}

	/** Writes the data file shortly: changes made by timers (status changes, delivery attempts) in one write. */
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
			this.onError(error);
		}
	}
}

/** Reads a state file; undefined when it does not exist yet. */
function loadStateFile(file: string): StateDocument | undefined {
	let text: string | undefined;
	let failure: NodeJS.ErrnoException | undefined;
	try {
		text = readFileSync(file, 'utf8');
	} catch (error) {
		failure = error as NodeJS.ErrnoException;
	}
	if (failure?.code === 'ENOENT') return undefined;
	if (failure) throw failure;
	return JSON.parse(text as string) as StateDocument;
}

/**
 * Writes the state to a temporary file beside the data file, then renames it over the data file: a crash
 * leaves either the old file or the new one, never half of one.
 */
function saveStateFile(file: string, document: StateDocument): void {
	mkdirSync(dirname(file), { recursive: true });
	const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
	writeFileSync(temporary, JSON.stringify(document), { mode: 0o600 });
	renameSync(temporary, file);
}
