import { createHash } from 'crypto';
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/**
 * The "Idempotency Key" option of operations that create something (a link, an event). Left empty, the key is
 * derived from the execution, the node, the item and what is sent: a retry of the item within the same
 * execution ("Retry On Fail", a resent request) sends the same key, and the service answers with the first
 * result instead of creating twice; a new execution, or another body, creates anew.
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

/** The key to send for an item: the user's, trimmed, or the derived one. */
export function idempotencyKeyFor(
	context: IExecuteFunctions,
	itemIndex: number,
	given: unknown,
	request: { operation: string; body: unknown },
): string {
	if (typeof given === 'string' && given.trim() !== '') return given.trim();
	const hash = createHash('sha256')
		.update(
			JSON.stringify([
				context.getExecutionId() ?? '',
				context.getNode().name,
				itemIndex,
				request.operation,
				request.body,
			]),
		)
		.digest('hex');
	return `n8n-${hash}`;
}
