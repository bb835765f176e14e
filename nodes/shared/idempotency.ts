import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/**
 * Idempotency keys of the requests that create something. Two derived keys:
 *
 * - per execution (`idempotencyKeyFor`): the execution, the node, the item and what is sent. A retry within the
 *   execution ("Retry On Fail", a resent request) sends the same key, and the service answers with the first
 *   result; a new execution creates anew. Short links, published events and Send and Wait's question use it.
 * - per workflow, with a window (`sendOnce`): the workflow, the node (its id), the item's position, the input
 *   item itself (its JSON) and what is sent, not the execution. Running the workflow again with the same items
 *   (a new execution, "Execute step" in the editor, a retry) within the window sends nothing again: the service
 *   answers with the first message. Past the window the item is sent anew. Another input item (a trigger's new
 *   event, a changed row) is another send, even with the same text to the same person: an auto-reply answers
 *   every message. The sends of the Multichannel node and Status → Post use it.
 */

/** The service keeps an Idempotency-Key and its first answer this long (../shared/SERVICE.md). */
const SERVICE_KEY_HOURS = 24;
/**
 * The window by default: half a day. Not the service's 24 hours: a workflow run every day at the same time with
 * the same items sends each item about 24 hours after the last, a few seconds either way, and would skip it
 * whenever it came a moment early.
 */
const DEFAULT_WINDOW_HOURS = 12;
const HOUR_MS = 3_600_000;
/** The name of the re-run window option, in a send's Options collection. */
export const RERUN_PROTECTION = 'rerunProtectionHours';

/**
 * The "Idempotency Key" option of operations that create something (a link, an event, a message). Left empty,
 * the key is derived (above).
 */
export const idempotencyKeyOption: INodeProperties = {
	displayName: 'Idempotency Key',
	name: 'idempotencyKey',
	type: 'string',
	default: '',
	placeholder: 'e.g. order-1042-link',
	description:
		'Requests with the same key and the same content within 24 hours take effect once; later ones get the first answer. Leave empty to derive one from the execution, the node, the item and the content.',
};

/** The window of the re-run protection of sends (`sendOnce`). */
export const rerunProtectionOption: INodeProperties = {
	displayName: 'Re-Run Protection (Hours)',
	name: RERUN_PROTECTION,
	type: 'number',
	default: DEFAULT_WINDOW_HOURS,
	typeOptions: { minValue: 0, maxValue: SERVICE_KEY_HOURS, numberPrecision: 0 },
	description:
		'For how many hours running this workflow again (a new execution, or Execute step in the editor) with the same input item, at the same position, sending the same content, does not send it again: the output is then the message already sent. Past this, it is sent anew. 0: every execution sends anew (a retry within one execution still sends once). At most 24, as long as the service keeps the keys; keep it under the period of a workflow that runs on a schedule with the same items.',
};

/** A key from its parts: `n8n-` and their sha256. */
function derive(parts: unknown[]): string {
	return `n8n-${createHash('sha256').update(JSON.stringify(parts)).digest('hex')}`;
}

/**
 * A reference naming what a node makes in a workflow, the same on every run (Campaign → Create's campaign): the
 * workflow, the node's name and `parts`, hashed; nothing secret goes into it.
 */
export function workflowReference(context: IExecuteFunctions, parts: unknown[]): string {
	return derive(['workflow', context.getWorkflow().id ?? '', context.getNode().name, ...parts]);
}

/** The key to send for an item: the user's, trimmed, or the one derived from the execution (above). */
export function idempotencyKeyFor(
	context: IExecuteFunctions,
	itemIndex: number,
	given: unknown,
	request: { operation: string; body: unknown },
): string {
	if (typeof given === 'string' && given.trim() !== '') return given.trim();
	return derive([
		context.getExecutionId() ?? '',
		context.getNode().name,
		itemIndex,
		request.operation,
		request.body,
	]);
}

/** The item's re-run window in hours (0 to 24; 0: none), from its Options. */
function rerunWindowHours(options: IDataObject): number {
	const hours = Number(options[RERUN_PROTECTION] ?? DEFAULT_WINDOW_HOURS);
	if (!Number.isFinite(hours)) return DEFAULT_WINDOW_HOURS;
	return Math.min(Math.max(Math.round(hours), 0), SERVICE_KEY_HOURS);
}

/** Whether an operation with these fields offers the re-run window, and this item has one. */
export function rerunProtected(options: IDataObject, fields: INodeProperties[]): boolean {
	const offered = fields.some(
		(field) =>
			field.name === 'options' &&
			(field.options ?? []).some((option) => 'name' in option && option.name === RERUN_PROTECTION),
	);
	return offered && rerunWindowHours(options) > 0;
}

/**
 * Sends an item once per window, as its Options say (Idempotency Key, Re-Run Protection): `send` is called with
 * the user's key when given, with the key of the
 * execution when the window is 0, and else with the workflow's key (above). The service answers a key it
 * already knows with its first answer; when that answer is older than the window, the item is sent again under
 * a key made from that one and the first answer's id, and so on: each later send of the item has a key of its
 * own, which the next run within its window finds. An answer's age is read on the service's clock
 * (`serviceNow`: the Date header of its latest answer), not n8n's.
 */
export async function sendOnce<T extends { id: string; createdAt?: string }>(
	context: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	request: { operation: string; body: unknown },
	send: (idempotencyKey: string) => Promise<T>,
	serviceNow: () => number | undefined,
): Promise<T> {
	const given = options.idempotencyKey;
	const hours = rerunWindowHours(options);
	if ((typeof given === 'string' && given.trim() !== '') || hours === 0) {
		return await send(idempotencyKeyFor(context, itemIndex, given, request));
	}
	const node = context.getNode();
	let key = derive([
		'workflow',
		context.getWorkflow().id ?? '',
		node.id || node.name,
		itemIndex,
		context.getInputData()[itemIndex]?.json ?? null,
		request.operation,
		request.body,
	]);
	// The service keeps a key 24 h: within them, a chain has at most one key per window (24 of 1 hour).
	for (let sends = 1; ; sends++) {
		const answer = await send(key);
		const madeAt = Date.parse(answer.createdAt ?? '');
		// Read on the service's clock (its Date header), as createdAt is: another clock could be off by the window.
		const now = serviceNow() ?? Date.now();
		const fresh = !Number.isFinite(madeAt) || now - madeAt < hours * HOUR_MS;
		if (fresh || sends > SERVICE_KEY_HOURS) return answer;
		key = derive([key, answer.id]);
	}
}
