/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code runs in plain Node, never inside n8n */
/**
 * The package as n8n's loader sees it: what package.json registers, the node's description assembled from its
 * resources, and (once built) the files under dist/ that n8n will load.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import nock from 'nock';
import {
	Workflow,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { loadPackage, PACKAGE_DIR, runNode } from '../../dev/harness';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

const NODE_TYPE = 'n8n-nodes-multichannel.multichannel';
const SHORT_LINK_NODE_TYPE = 'n8n-nodes-multichannel.multichannelShortLink';
const AUTOMATION_NODE_TYPE = 'n8n-nodes-multichannel.multichannelAutomation';
const TRIGGER_NODE_TYPES = [
	'n8n-nodes-multichannel.multichannelTrigger',
	'n8n-nodes-multichannel.multichannelShortLinkTrigger',
	'n8n-nodes-multichannel.multichannelAutomationTrigger',
];
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
		expect(description.usableAsTool).toEqual({
			replacements: { description: expect.stringContaining('Send Media takes a URL') },
		});
		expect(description.credentials).toEqual([{ name: 'multichannelApi', required: true }]);
		expect(description.codex).toMatchObject({
			categories: ['Communication'],
			resources: { primaryDocumentation: [{ url: expect.stringMatching(/^https:\/\//) }] },
		});
	});

	test('offers every resource, and every operation has an action in sentence case', () => {
		const resource = description.properties.find((property) => property.name === 'resource');
		expect(resource?.options).toEqual([
			{ name: 'Contact', value: 'contact' },
			{ name: 'Group', value: 'group' },
			{ name: 'Instance', value: 'instance' },
			{ name: 'Message', value: 'message' },
			{ name: 'Model', value: 'model' },
			{ name: 'Webhook', value: 'webhook' },
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
			].sort(),
		);
		expect(values('message')).toEqual(
			[
				'delete',
				'downloadMedia',
				'get',
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
			].sort(),
		);
		expect(values('group')).toHaveLength(11);
		expect(values('contact')).toHaveLength(8);
		expect(values('webhook')).toEqual(['create', 'delete', 'get', 'getAll', 'update']);
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

	test('light and dark icons are different files that exist', async () => {
		const pkg = await loadPackage();
		const files = [
			...themedIconFiles(pkg.packageName, description.iconUrl),
			...CREDENTIAL_TYPES.flatMap((type) =>
				themedIconFiles(pkg.packageName, pkg.credentialTypes[type].iconUrl),
			),
		];
		expect(new Set(files.map((file) => path.basename(file)))).toEqual(
			new Set(['multichannel.svg', 'multichannel.dark.svg']),
		);
		// Registered paths are under dist/; the sources beside them hold the same icons.
		for (const file of files) {
			expect(existsSync(file.replace(`${path.sep}dist${path.sep}`, path.sep))).toBe(true);
		}
	});
});

describe.each([
	{
		type: SHORT_LINK_NODE_TYPE,
		credential: 'multichannelShortLinkApi',
		resources: ['Click', 'Link'],
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

	test('is usable as a tool, uses its own key, has its codex and the themed icons', async () => {
		const { description } = node;
		expect(description.usableAsTool).toBe(true);
		expect(description.credentials).toEqual([{ name: credential, required: true }]);
		expect(description.codex).toMatchObject({
			resources: { primaryDocumentation: [{ url: expect.stringMatching(/^https:\/\//) }] },
		});
		const pkg = await loadPackage();
		const icons = themedIconFiles(pkg.packageName, description.iconUrl);
		expect(icons.map((file) => path.basename(file))).toEqual([
			'multichannel.svg',
			'multichannel.dark.svg',
		]);
		for (const file of icons) expect(existsSync(file)).toBe(true);
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

/**
 * The entries of n8n's node creator, as its editor builds them (`generateMergedNodesAndActions` in
 * packages/frontend/editor-ui/…/NodeCreator/composables/useActionsGeneration.ts): a trigger whose type name
 * without "Trigger" is an action node's is merged into that node's entry, and the merged entry shows the
 * trigger's description ("default to trigger description"), in the "What happens next?" panel as in the
 * trigger panel. Other nodes keep their own.
 */
function nodeCreatorEntries(types: Record<string, INodeType>): Record<string, string> {
	const entries: Record<string, string> = {};
	const isTrigger = (name: string) => types[name].description.group.includes('trigger');
	for (const name of Object.keys(types).filter((name) => !isTrigger(name))) {
		entries[name] = types[name].description.description;
	}
	for (const name of Object.keys(types).filter(isTrigger)) {
		const app = name.replace('Trigger', '');
		entries[app in entries ? app : name] = types[name].description.description;
	}
	return entries;
}

test("in n8n's node creator, each action node merged with its trigger is described as an action too", async () => {
	const types = (await loadPackage()).nodeTypes as Record<string, INodeType>;
	const entries = nodeCreatorEntries(types);
	expect(Object.keys(entries).sort()).toEqual(
		[NODE_TYPE, SHORT_LINK_NODE_TYPE, AUTOMATION_NODE_TYPE].sort(),
	);
	expect(entries[NODE_TYPE]).toMatch(/^Send messages\b/);
	expect(entries[SHORT_LINK_NODE_TYPE]).toMatch(/^Create and manage\b/);
	expect(entries[AUTOMATION_NODE_TYPE]).toMatch(/^Publish\b/);
	for (const description of Object.values(entries)) {
		expect(description).toMatch(/\bor start a workflow\b/);
	}
});

test('every picker speaks English: "Select an instance...", "An instance ID has no spaces"', async () => {
	const types = (await loadPackage()).nodeTypes as Record<string, INodeType>;
	const texts: string[] = [];
	for (const type of Object.values(types)) {
		for (const property of type.description.properties) {
			for (const mode of property.modes ?? []) {
				if (mode.placeholder) texts.push(mode.placeholder);
				for (const rule of mode.validation ?? []) {
					const { errorMessage } =
						(rule as { properties?: { errorMessage?: string } }).properties ?? {};
					if (errorMessage) texts.push(errorMessage);
				}
			}
		}
	}
	expect(texts).toContain('Select an instance...');
	expect(texts).toContain('An instance ID has no spaces');
	for (const text of texts) {
		expect(text).not.toMatch(/\b[Aa] [aeiou]/);
		expect(text).not.toMatch(/\b[Aa]n [^aeiou\s]/);
	}
});

/** The subtitle under a node on the canvas, evaluated as n8n's editor does (`getNodeSubtitle`). */
async function subtitleOf(type: string, parameters: INodeParameters): Promise<unknown> {
	const nodeTypes = (await loadPackage()).nodeTypes as Record<string, INodeType>;
	const node: INode = {
		id: 'node',
		name: 'Node',
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: {
			getByName: (name) => nodeTypes[name],
			getByNameAndVersion: (name) => nodeTypes[name],
			getKnownTypes: () => ({}),
		},
	});
	return workflow.expression.getSimpleParameterValue(
		workflow.getNode('Node') as INode,
		nodeTypes[type].description.subtitle as string,
		'internal',
		{},
		undefined,
		'',
	);
}

test.each([
	[NODE_TYPE, { resource: 'message', operation: 'sendText' }, 'Message: Send Text'],
	[NODE_TYPE, { resource: 'contact', operation: 'checkNumbers' }, 'Contact: Check Numbers Exist'],
	[NODE_TYPE, { resource: 'group', operation: 'addParticipants' }, 'Group: Add Participants'],
	[SHORT_LINK_NODE_TYPE, { resource: 'click', operation: 'getAll' }, 'Click: Get Many'],
	[AUTOMATION_NODE_TYPE, { resource: 'event', operation: 'publish' }, 'Event: Publish'],
	[
		TRIGGER_NODE_TYPES[0],
		{ events: ['message.received', 'instance.qr_updated'] },
		'Message received, Instance qr updated',
	],
	[TRIGGER_NODE_TYPES[0], { events: ['*'] }, 'All Events'],
	[TRIGGER_NODE_TYPES[1], { events: ['link.clicked'] }, 'Link clicked'],
	[TRIGGER_NODE_TYPES[2], { listenTo: 'all' }, 'All events'],
	[TRIGGER_NODE_TYPES[2], { listenTo: 'chosen', eventNames: 'order.paid' }, 'order.paid'],
])('%s with %j shows the subtitle "%s"', async (type, parameters, subtitle) => {
	expect(await subtitleOf(type, parameters)).toBe(subtitle);
});

const built = existsSync(path.join(PACKAGE_DIR, 'dist/nodes/Multichannel/Multichannel.node.js'));

// The built package is what n8n installs: checked whenever `npm run build` has run (CI builds before testing).
(built ? describe : describe.skip)('from dist (after npm run build)', () => {
	test('every registered file exists, loads, and its icons were copied', async () => {
		const pkg = await loadPackage({ from: 'dist' });
		expect(Object.keys(pkg.nodeTypes).sort()).toEqual(NODE_TYPES);
		expect(Object.keys(pkg.credentialTypes).sort()).toEqual(CREDENTIAL_TYPES);

		const { description } = pkg.nodeTypes[NODE_TYPE] as INodeType;
		expect(description.codex?.categories).toEqual(['Communication']);
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
