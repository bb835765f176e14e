/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the sandbox runs in plain Node, never inside n8n */
import { randomBytes } from 'node:crypto';
import {
	closeSync,
	existsSync,
	fsync,
	fsyncSync,
	ftruncateSync,
	mkdirSync,
	openSync,
	readdirSync,
	readFileSync,
	renameSync,
	unlinkSync,
	writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The data file as an append-only journal of JSON lines: a header, then one line per save, holding every
 * record that save changed. Reading it gives the lines in order; a last line cut short by a crash (no newline
 * after it) is ignored and cut off, so that the next line starts clean. A line is written with one `write`
 * before the request it saves is answered: once answered, it is in the file, and a kill -9 cannot take it.
 */

export const JOURNAL_FORMAT = 'multichannel-sandbox-journal';
const HEADER = `${JSON.stringify({ format: JOURNAL_FORMAT, version: 2 })}\n`;
/** A compaction writes this much at a time, and lets the event loop turn between two writes. */
const CHUNK_CHARACTERS = 256 * 1024;

/** A data file as found: its lines after the header (the first is line 2), or a data file of version 1. */
export type JournalContents =
	| { kind: 'journal'; lines: string[]; bytes: number }
	| { kind: 'document'; document: unknown };

/** Reads a data file; undefined when there is none yet. */
export function readJournal(file: string): JournalContents | undefined {
	if (!existsSync(file)) return undefined;
	const text = readFileSync(file, 'utf8');
	if (!text.startsWith(HEADER)) {
		// Version 1: the whole state in one JSON document.
		return { kind: 'document', document: JSON.parse(text) as unknown };
	}
	const end = text.lastIndexOf('\n') + 1;
	const lines = text.slice(HEADER.length, end).split('\n').slice(0, -1);
	return { kind: 'journal', lines, bytes: Buffer.byteLength(text.slice(0, end)) };
}

export class Journal {
	private fd: number;

	/** Opens a journal for appending; `bytes`: its size without a torn last line (cut off now). */
	constructor(
		readonly file: string,
		private bytes: number,
	) {
		this.fd = openSync(file, 'r+', 0o600);
		ftruncateSync(this.fd, bytes);
	}

	/** Bytes in the file. */
	get size(): number {
		return this.bytes;
	}

	/** Appends one line (ending with a newline); if it cannot be written whole, the file is as it was. */
	append(line: string): void {
		const data = Buffer.from(line);
		let written = false;
		try {
			writeFully(this.fd, data, this.bytes);
			written = true;
		} finally {
			if (!written) ftruncateSync(this.fd, this.bytes);
		}
		this.bytes += data.length;
	}

	/**
	 * Replaces the journal with `lines` and then `appendedSince()` (the lines appended meanwhile): written to a
	 * temporary file beside it in chunks, letting the event loop turn between them, synced, renamed over it, the
	 * directory synced. A crash at any point leaves the old journal or the new one, whole; a failure leaves the
	 * old one, still appended to, and nothing beside it.
	 */
	async rewrite(lines: Iterable<string>, appendedSince: () => string[]): Promise<void> {
		const { fd, bytes } = await writeNewJournal(this.file, lines, appendedSince);
		closeSync(this.fd);
		this.fd = fd;
		this.bytes = bytes;
		syncDirectory(dirname(this.file));
	}

	/** Closes the file; a write after it fails instead of going to whatever file reuses the descriptor. */
	close(): void {
		closeSync(this.fd);
		this.fd = -1;
	}
}

/** The name of a compaction's temporary file beside `file`: the pid and a random part keep two apart. */
function temporaryName(file: string): string {
	return `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/**
 * Removes the temporary files of compactions that a crash (kill -9) cut short beside `file`; call it holding
 * the data file's lock, when no compaction of it can be running. Answers how many it removed.
 */
export function removeLeftovers(file: string): number {
	const directory = dirname(file);
	if (!existsSync(directory)) return 0;
	const prefix = `${basename(file)}.`;
	const leftovers = readdirSync(directory).filter(
		(name) => name.startsWith(prefix) && /^\d+\.[0-9a-f]{8}\.tmp$/.test(name.slice(prefix.length)),
	);
	for (const name of leftovers) unlinkSync(join(directory, name));
	return leftovers.length;
}

/** Creates the journal file with these lines (a new file, or one of version 1 replaced) and opens it. */
export async function createJournal(file: string, lines: Iterable<string>): Promise<Journal> {
	const { fd, bytes } = await writeNewJournal(file, lines, () => []);
	closeSync(fd);
	syncDirectory(dirname(file));
	return new Journal(file, bytes);
}

/**
 * Writes a journal of `lines` to a temporary file and renames it over `file`, followed by `tail()` (a list
 * that may grow meanwhile), whose last lines are written in the same turn of the event loop as the rename, so
 * that no line appended meanwhile is missed.
 * On failure the temporary file is closed and removed.
 */
async function writeNewJournal(
	file: string,
	lines: Iterable<string>,
	tail: () => string[],
): Promise<{ fd: number; bytes: number }> {
	mkdirSync(dirname(file), { recursive: true });
	const temporary = temporaryName(file);
	const fd = openSync(temporary, 'w+', 0o600);
	let bytes = 0;
	const write = (text: string) => {
		const data = Buffer.from(text);
		writeFully(fd, data, bytes);
		bytes += data.length;
	};
	let written = false;
	try {
		let chunk = [HEADER];
		let characters = HEADER.length;
		for (const line of lines) {
			chunk.push(line);
			characters += line.length;
			if (characters < CHUNK_CHARACTERS) continue;
			write(chunk.join(''));
			chunk = [];
			characters = 0;
			await nextTurn();
		}
		write(chunk.join(''));
		await promisify(fsync)(fd);
		// The lines saved meanwhile (and while these are written), a chunk a turn; the last ones in the turn
		// of the rename.
		const saved = tail();
		for (let taken = 0; ; await nextTurn()) {
			const start = taken;
			for (characters = 0; taken < saved.length && characters < CHUNK_CHARACTERS; taken++) {
				characters += saved[taken].length;
			}
			write(saved.slice(start, taken).join(''));
			if (taken === saved.length) break;
		}
		renameSync(temporary, file);
		written = true;
		return { fd, bytes };
	} finally {
		if (!written) {
			closeSync(fd);
			unlinkSync(temporary);
		}
	}
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function writeFully(fd: number, data: Buffer, position: number): void {
	for (let written = 0; written < data.length; ) {
		written += writeSync(fd, data, written, data.length - written, position + written);
	}
}

/** So that a rename survives a crash of the machine, not only of the process. */
function syncDirectory(directory: string): void {
	const fd = openSync(directory, 'r');
	try {
		fsyncSync(fd);
	} finally {
		closeSync(fd);
	}
}
