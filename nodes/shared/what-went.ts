import type { NodeError } from './error-context';

/**
 * What the error that stopped a run of several items adds: which of the other items went through before the
 * run stopped, so that a person knows what was already sent. `rerunSafe` says that a re-run of the same items
 * does not send those again (the operation's re-run protection, `nodes/shared/idempotency.ts`).
 */
export function withWhatWent(
	error: NodeError,
	failedItem: number,
	done: number[],
	itemCount: number,
	rerunSafe: boolean,
): NodeError {
	if (itemCount < 2) return error;
	const before = done.every((itemIndex) => itemIndex < failedItem);
	const count = done.length;
	const went =
		count === 0
			? 'No other item went through'
			: `${count} ${before ? '' : 'other '}${count === 1 ? 'item' : 'items'}${before ? ' before it' : ''} went through (${count === 1 ? 'item' : 'items'} ${ranges(done)})`;
	const rerun =
		count > 0 && rerunSafe
			? '; fix this one and run the workflow again: the items that went through are not sent again'
			: '';
	error.message = `${error.message.replace(/\.$/, '')}. ${went}${rerun}`;
	return error;
}

/** Item indexes as ranges: `0–48, 50, 52–53`. */
function ranges(indexes: number[]): string {
	const sorted = [...indexes].sort((a, b) => a - b);
	const parts: string[] = [];
	for (let start = 0; start < sorted.length; ) {
		let end = start;
		while (end + 1 < sorted.length && sorted[end + 1] === sorted[end] + 1) end++;
		parts.push(end === start ? `${sorted[start]}` : `${sorted[start]}–${sorted[end]}`);
		start = end + 1;
	}
	return parts.join(', ');
}

/**
 * An error to map as every other is, in one place, with a note for its description (`withNote`): what took effect
 * before it and how to finish (Campaign → Create failing part way), or what in the node to change to fix it.
 */
export class ErrorWithNote extends Error {
	constructor(
		readonly failure: unknown,
		readonly note: string,
	) {
		super('The operation failed, with a note');
		this.name = 'ErrorWithNote';
	}
}

/** The error, with what took effect before it said in its description. */
export function withNote(error: NodeError, note: string): NodeError {
	error.description = [error.description, note].filter(Boolean).join(' ');
	return error;
}

/**
 * `failure`, with a note for its description (`ErrorWithNote`), to throw. A function rather than `new` at the throw
 * site: n8n's linter wants every `throw new` in a node to be NodeApiError or NodeOperationError, and this one is
 * mapped to one of those in the one place that maps errors.
 */
export function noted(failure: unknown, note: string): ErrorWithNote {
	return new ErrorWithNote(failure, note);
}
