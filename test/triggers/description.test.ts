/** The three trigger nodes as n8n's loader sees them: trigger conventions, webhook, key and codex (icons: test/nodes/package.test.ts). */

import type { INodeType } from 'n8n-workflow';

import { loadPackage } from '../../dev/harness';
import { CREDENTIAL_OF, TRIGGER_TYPES } from '../../dev/harness/triggers';

describe.each([
	{
		type: TRIGGER_TYPES.messaging,
		display: 'Multichannel Trigger',
		filter: 'instanceIds',
		options: ['downloadMedia', 'maxFileSizeMb', 'onlyReplies'],
	},
	{
		type: TRIGGER_TYPES.shortLink,
		display: 'Multichannel Short Link Trigger',
		filter: 'linkIds',
		options: [],
	},
	{
		type: TRIGGER_TYPES.automation,
		display: 'Multichannel Automation Trigger',
		filter: 'eventNames',
		options: [],
	},
])('$display', ({ type, display, filter, options: own }) => {
	let node: INodeType;

	beforeAll(async () => {
		node = (await loadPackage()).nodeTypes[type] as INodeType;
	});

	test('follows n8n trigger conventions with one POST webhook answered on receipt', () => {
		const { description } = node;
		expect(description).toMatchObject({
			displayName: display,
			name: type.split('.')[1],
			group: ['trigger'],
			inputs: [],
			outputs: ['main'],
			credentials: [{ name: CREDENTIAL_OF[type], required: true }],
			webhooks: [
				{
					name: 'default',
					httpMethod: 'POST',
					responseMode: 'onReceived',
					responseData: '',
					path: 'webhook',
				},
			],
		});
		expect(description.name).toMatch(/Trigger$/);
		// New nodes at version 2, which n8n spares an expression per delivery; workflows saved at 1 still run.
		expect(description.version).toEqual([1, 2]);
		expect(description.defaultVersion).toBe(2);
		expect(description.usableAsTool).toBeUndefined();
		for (const method of ['checkExists', 'create', 'delete'] as const) {
			expect(typeof node.webhookMethods?.default?.[method]).toBe('function');
		}
		expect(typeof node.webhook).toBe('function');
	});

	test('offers its filter, the "Output Only Data" option and its own options', () => {
		const names = node.description.properties.map((property) => property.name);
		expect(names).toContain(filter);
		const options = node.description.properties.find((property) => property.name === 'options');
		expect(options?.options).toEqual(
			expect.arrayContaining([expect.objectContaining({ name: 'onlyData', default: false })]),
		);
		expect((options?.options ?? []).map((option) => option.name)).toEqual(
			expect.arrayContaining(['onlyData', ...own]),
		);
	});

	// Its icons, the surface's own, are checked with the action node's in test/nodes/package.test.ts.
	test('has its codex', () => {
		expect(node.description.codex).toMatchObject({
			categories: expect.any(Array),
			resources: { primaryDocumentation: [{ url: expect.stringMatching(/^https:\/\//) }] },
		});
	});
});
