/**
 * What a run of the Multichannel node reads of its parameters, counted in n8n-core itself (every
 * `getNodeParameter` evaluates the expressions it reaches): Resource and Operation once per run, as n8n's Google
 * Sheets v2 router reads them, and the Options collection once per item, handed to the operation, though every
 * item of a write is checked before the first is sent. Send Text against the sandbox on loopback.
 */
import { ExecuteContext } from 'n8n-core';
import type { INode } from 'n8n-workflow';

import { NODE_NAME, useResource } from '../support/nodes';

const suite = useResource('message', { instance: 'Parameter reads' });

/** The names the node under test reads, each with how many times it read it. */
function countReads(): { reads: Map<string, number>; stop: () => void } {
	const reads = new Map<string, number>();
	const prototype = ExecuteContext.prototype as unknown as Record<
		'_getNodeParameter',
		(this: { node: INode }, name: string, ...rest: unknown[]) => unknown
	>;
	const original = prototype._getNodeParameter;
	const spy = jest.spyOn(prototype, '_getNodeParameter').mockImplementation(function (
		this: { node: INode },
		name,
		...rest
	) {
		if (this.node.name === NODE_NAME) reads.set(name, (reads.get(name) ?? 0) + 1);
		return original.call(this, name, ...rest);
	});
	return { reads, stop: () => spy.mockRestore() };
}

test('Send Text of 3 items: Resource and Operation read once, the Options once per item', async () => {
	const { reads, stop } = countReads();
	try {
		const result = await suite.run(
			{
				operation: 'sendText',
				to: '={{ $json.phone }}',
				text: '=Hi {{ $json.name }}, see https://example.com',
				options: {
					previewUrl: true,
					trackLinks: true,
					quotedMessageId: '',
					mentions: '={{ $json.phone }}',
					idempotencyKey: '=order-{{ $json.name }}',
					rerunProtectionHours: 6,
					concurrency: 2,
				},
			},
			[
				{ phone: '+14155550401', name: 'Ana' },
				{ phone: '+14155550402', name: 'Ben' },
				{ phone: '+14155550403', name: 'Chloé' },
			],
		);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE_NAME)).toHaveLength(3);
	} finally {
		stop();
	}
	expect(reads.get('resource')).toBe(1);
	expect(reads.get('operation')).toBe(1);
	expect(reads.get('options')).toBe(3);
	expect([...reads.keys()].filter((name) => name.startsWith('options.'))).toEqual([]);
});
