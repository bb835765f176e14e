/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code runs in plain Node, never inside n8n */
/**
 * The package as n8n's loader sees it: what package.json registers, the node's description assembled from its
 * resources, and (once built) the files under dist/ that n8n will load. How the editor shows the nodes is in
 * package-editor.test.ts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import nock from 'nock';
import type { INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { loadPackage, PACKAGE_DIR, runNode } from '../../dev/harness';
import { NODE_TYPE } from '../support/nodes';
import { AUTOMATION_NODE_TYPE, SHORT_LINK_NODE_TYPE, TRIGGER_NODE_TYPES } from '../support/package';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

const NODE_TYPES = [
	NODE_TYPE,
	AUTOMATION_NODE_TYPE,
	SHORT_LINK_NODE_TYPE,
	...TRIGGER_NODE_TYPES,
].sort();
const CREDENTIAL_TYPES = [
	'multichannelApi',
	'multichannelAutomationApi',
	'multichannelShortLinkApi',
];

/** `iconUrl` as the loader rewrites it (`icons/<package>/<path in package>`), back to a file. */
function iconFile(packageName: string, iconUrl: unknown): string {
	expect(typeof iconUrl).toBe('string');
	return path.join(PACKAGE_DIR, String(iconUrl).replace(`icons/${packageName}/`, ''));
}

function themedIconFiles(packageName: string, iconUrl: unknown): string[] {
	const { light, dark } = iconUrl as { light: string; dark: string };
	return [iconFile(packageName, light), iconFile(packageName, dark)];
}

describe('from sources', () => {
	let description: INodeTypeDescription;
	let node: INodeType;

	beforeAll(async () => {
		const pkg = await loadPackage();
		node = pkg.nodeTypes[NODE_TYPE] as INodeType;
		description = node.description;
	});

	test('registers the six nodes (three of them triggers) and the three credentials', async () => {
		const pkg = await loadPackage();
		expect(Object.keys(pkg.nodeTypes).sort()).toEqual(NODE_TYPES);
		expect(Object.keys(pkg.credentialTypes).sort()).toEqual(CREDENTIAL_TYPES);
	});

	test('the node is usable as a tool, uses the workspace key and has its codex', () => {
		// As a tool its description says how files travel: n8n passes a tool no binary data.
		// …and, since n8n's $fromAI gives the model no description of a field, what a chat looks like.
		expect(description.usableAsTool).toEqual({
			replacements: {
				description: expect.stringMatching(
					/Send Media takes a URL.*chat ID \(…@s\.whatsapp\.net.*phone number with its country code/,
				),
			},
		});
		expect(description.credentials).toEqual([{ name: 'multichannelApi', required: true }]);
		// HITL: n8n's node creator lists it under Human review › "Send and wait for response", beside n8n's own
		// Telegram, Slack and Gmail nodes, whose codex says the same.
		expect(description.codex).toMatchObject({
			categories: ['Communication', 'HITL'],
			subcategories: { HITL: ['Human in the Loop'] },
			resources: { primaryDocumentation: [{ url: expect.stringMatching(/^https:\/\//) }] },
		});
		// What a new user types in the node creator's search finds it.
		expect(description.codex?.alias).toEqual(
			expect.arrayContaining(['Send Message', 'Message', 'Buttons', 'Approval']),
		);
	});

	test('documentation links take the query n8n appends (its editor adds "?utm_source=…" to them)', async () => {
		const pkg = await loadPackage();
		const urls = [
			...Object.values(pkg.nodeTypes).flatMap((type) => {
				const resources = type.description.codex?.resources ?? {};
				return [
					...(resources.primaryDocumentation ?? []),
					...(resources.credentialDocumentation ?? []),
				].map((entry) => entry.url);
			}),
			...Object.values(pkg.credentialTypes).map((type) => type.documentationUrl),
		];
		expect(urls.length).toBeGreaterThanOrEqual(15);
		for (const url of urls) expect(url).toMatch(/^https:\/\/[^?]+$/);
	});

	test('offers every resource, and every operation has an action in sentence case', () => {
		const resource = description.properties.find((property) => property.name === 'resource');
		// Message first: n8n's node creator lists each resource's actions in this order.
		expect(resource?.options).toEqual([
			{ name: 'Message', value: 'message' },
			{ name: 'Chat', value: 'chat' },
			{ name: 'Instance', value: 'instance' },
			{ name: 'Group', value: 'group' },
			{ name: 'Contact', value: 'contact' },
			{ name: 'Webhook', value: 'webhook' },
			{ name: 'Model', value: 'model' },
			{ name: 'Call', value: 'call' },
			{ name: 'Scheduled Message', value: 'scheduled' },
			{ name: 'Label', value: 'label' },
			{ name: 'Status', value: 'status' },
			{ name: 'Campaign', value: 'campaign' },
			{ name: 'Opt-Out', value: 'optOut' },
		]);
		const operationsOf = (value: string) =>
			description.properties.find(
				(property) =>
					property.name === 'operation' && property.displayOptions?.show?.resource?.[0] === value,
			)?.options as Array<{ value: string; action: string }>;
		expect(operationsOf('model')).toEqual([
			expect.objectContaining({ name: 'Get', value: 'get', action: 'Get a model' }),
			expect.objectContaining({ name: 'Get Many', value: 'getAll', action: 'Get many models' }),
		]);
		const values = (value: string) =>
			operationsOf(value)
				.map((option) => option.value)
				.sort();
		expect(values('instance')).toEqual(
			[
				'connect',
				'create',
				'delete',
				'get',
				'getAll',
				'getConnectionState',
				'logout',
				'restart',
				'update',
			].sort(),
		);
		expect(values('message')).toEqual(
			[
				'delete',
				'downloadMedia',
				'get',
				'getAll',
				'markRead',
				'sendAndWait',
				'sendContactCard',
				'sendLocation',
				'sendMedia',
				'sendPoll',
				'sendReaction',
				'sendText',
				'edit',
				'sendButtons',
				'sendList',
				'sendTyping',
				'getPollResults',
				'sendVoiceNote',
				'sendSticker',
			].sort(),
		);
		expect(values('call')).toEqual(['reject']);
		expect(values('chat')).toEqual(['get', 'getAll', 'giveBack', 'handOver', 'markRead']);
		expect(values('group')).toHaveLength(11);
		expect(values('contact')).toHaveLength(8);
		expect(values('webhook')).toEqual(['create', 'delete', 'get', 'getAll', 'update']);
		expect(values('scheduled')).toEqual(['cancel', 'getAll']);
		expect(values('status')).toEqual(['delete', 'getAll', 'post']);
		expect(values('campaign')).toEqual(
			['cancel', 'create', 'get', 'getAll', 'getRecipients', 'pause', 'resume'].sort(),
		);
		expect(values('optOut')).toEqual(['add', 'check', 'getAll', 'remove']);
		expect(values('label')).toEqual(
			['addToChat', 'create', 'delete', 'getAll', 'removeFromChat', 'update'].sort(),
		);
		for (const operation of description.properties.filter((p) => p.name === 'operation')) {
			for (const option of operation.options ?? []) {
				expect((option as { action: string }).action).toMatch(/^[A-Z][a-z]+( [a-z0-9]+)+$/);
			}
		}
	});

	test('every operation field is shown for its own resource and operation only', () => {
		const fields = description.properties.filter(
			(property) => !['resource', 'operation'].includes(property.name),
		);
		const shownFor = (property: INodeProperties) => ({
			name: property.name,
			resource: property.displayOptions?.show?.resource,
			operation: property.displayOptions?.show?.operation,
		});
		for (const field of fields) {
			expect(shownFor(field).resource).toHaveLength(1);
			expect(shownFor(field).operation).toHaveLength(1);
		}
		expect(
			fields.filter((field) => shownFor(field).resource?.[0] === 'model').map(shownFor),
		).toEqual([
			{ name: 'modelId', resource: ['model'], operation: ['get'] },
			{ name: 'returnAll', resource: ['model'], operation: ['getAll'] },
			{ name: 'limit', resource: ['model'], operation: ['getAll'] },
		]);
		expect(fields.find((field) => field.name === 'limit')?.displayOptions?.show?.returnAll).toEqual(
			[false],
		);
	});

	test('the model locator searches with a method the node provides', () => {
		const locator = description.properties.find((property) => property.name === 'modelId');
		const listMode = locator?.modes?.find((mode) => mode.name === 'list');
		const method = listMode?.typeOptions?.searchListMethod;
		expect(method).toBe('searchModels');
		expect(typeof node.methods?.listSearch?.[method as string]).toBe('function');
	});

	test.each([
		{
			surface: 'multichannel',
			nodes: [NODE_TYPE, `${NODE_TYPE}Trigger`],
			credential: 'multichannelApi',
		},
		{
			surface: 'short-link',
			nodes: [SHORT_LINK_NODE_TYPE, `${SHORT_LINK_NODE_TYPE}Trigger`],
			credential: 'multichannelShortLinkApi',
		},
		{
			surface: 'automation',
			nodes: [AUTOMATION_NODE_TYPE, `${AUTOMATION_NODE_TYPE}Trigger`],
			credential: 'multichannelAutomationApi',
		},
	])(
		'the $surface surface has light and dark icons of its own, shared by its action node, trigger and credential',
		async ({ surface, nodes, credential }) => {
			const pkg = await loadPackage();
			const iconUrls = [
				...nodes.map((type) => pkg.nodeTypes[type].description.iconUrl),
				pkg.credentialTypes[credential].iconUrl,
			];
			for (const iconUrl of iconUrls) {
				const files = themedIconFiles(pkg.packageName, iconUrl);
				expect(files.map((file) => path.basename(file))).toEqual([
					`${surface}.svg`,
					`${surface}.dark.svg`,
				]);
				// Registered paths are under dist/; the sources beside them hold the same icons.
				for (const file of files)
					expect(existsSync(file.replace(`${path.sep}dist${path.sep}`, path.sep))).toBe(true);
			}
		},
	);
});

describe.each([
	{
		type: SHORT_LINK_NODE_TYPE,
		credential: 'multichannelShortLinkApi',
		resources: ['Link', 'Click'],
		searches: { linkId: 'searchLinks' },
	},
	{
		type: AUTOMATION_NODE_TYPE,
		credential: 'multichannelAutomationApi',
		resources: ['Event'],
		searches: {},
	},
])('$type', ({ type, credential, resources, searches }) => {
	let node: INodeType;

	beforeAll(async () => {
		node = (await loadPackage()).nodeTypes[type] as INodeType;
	});

	test('is usable as a tool, uses its own key, and has its codex', async () => {
		const { description } = node;
		expect(description.usableAsTool).toBe(true);
		expect(description.credentials).toEqual([{ name: credential, required: true }]);
		expect(description.codex).toMatchObject({
			resources: { primaryDocumentation: [{ url: expect.stringMatching(/^https:\/\//) }] },
		});
	});

	test('offers its resources, and every operation has an action', () => {
		const { properties } = node.description;
		const resource = properties.find((property) => property.name === 'resource');
		expect(resource?.options?.map((option) => (option as { name: string }).name)).toEqual(
			resources,
		);
		for (const operation of properties.filter((property) => property.name === 'operation')) {
			for (const option of operation.options ?? []) {
				expect(option).toMatchObject({ action: expect.stringMatching(/^[A-Z][a-z]/) });
			}
		}
	});

	test('every resource locator searches with a method the node provides', () => {
		for (const [field, method] of Object.entries(searches)) {
			const locators = node.description.properties.filter((property) => property.name === field);
			expect(locators.length).toBeGreaterThan(0);
			for (const locator of locators) {
				const listMode = locator.modes?.find((mode) => mode.name === 'list');
				expect(listMode?.typeOptions?.searchListMethod).toBe(method);
			}
			expect(typeof node.methods?.listSearch?.[method]).toBe('function');
		}
	});
});

const built = existsSync(path.join(PACKAGE_DIR, 'dist/nodes/Multichannel/Multichannel.node.js'));

// The built package is what n8n installs: checked whenever `npm run build` has run (CI builds before testing).
(built ? describe : describe.skip)('from dist (after npm run build)', () => {
	test('every registered file exists, loads, and its icons were copied', async () => {
		const pkg = await loadPackage({ from: 'dist' });
		expect(Object.keys(pkg.nodeTypes).sort()).toEqual(NODE_TYPES);
		expect(Object.keys(pkg.credentialTypes).sort()).toEqual(CREDENTIAL_TYPES);

		const { description } = pkg.nodeTypes[NODE_TYPE] as INodeType;
		expect(description.codex?.categories).toEqual(['Communication', 'HITL']);
		const files = [
			...themedIconFiles(pkg.packageName, description.iconUrl),
			...CREDENTIAL_TYPES.flatMap((type) =>
				themedIconFiles(pkg.packageName, pkg.credentialTypes[type].iconUrl),
			),
		];
		for (const file of files) expect(existsSync(file)).toBe(true);
		for (const type of [SHORT_LINK_NODE_TYPE, AUTOMATION_NODE_TYPE]) {
			const other = (pkg.nodeTypes[type] as INodeType).description;
			expect(other.codex?.categories).toEqual(expect.any(Array));
			for (const file of themedIconFiles(pkg.packageName, other.iconUrl)) {
				expect(existsSync(file)).toBe(true);
			}
		}
	});

	test('the built node runs in a workflow', async () => {
		nock.disableNetConnect();
		const service = nock('http://127.0.0.1:8787')
			.get('/api/v1/models')
			.matchHeader('authorization', 'Bearer built-package-test')
			.reply(200, { data: [{ id: 'gpt-4o-mini' }] });

		const result = await runNode(
			{
				type: NODE_TYPE,
				name: 'Multichannel',
				parameters: { resource: 'model', operation: 'getAll', returnAll: true },
			},
			{ from: 'dist', credentials: { multichannelApi: { apiKey: 'built-package-test' } } },
		);

		expect(result.output('Multichannel')).toEqual([
			{ json: { id: 'gpt-4o-mini' }, pairedItem: { item: 0 } },
		]);
		service.done();
		nock.enableNetConnect();
	});
});
