/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code runs in plain Node, never inside n8n */
/**
 * The package as n8n's loader sees it: what package.json registers, the node's description assembled from its
 * resources, and (once built) the files under dist/ that n8n will load.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import nock from 'nock';
import type { INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { loadPackage, PACKAGE_DIR, runNode } from '../support/n8n-harness';

const NODE_TYPE = 'n8n-nodes-multichannel.multichannel';
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

	test('registers one node and the three credentials', async () => {
		const pkg = await loadPackage();
		expect(Object.keys(pkg.nodeTypes)).toEqual([NODE_TYPE]);
		expect(Object.keys(pkg.credentialTypes).sort()).toEqual(CREDENTIAL_TYPES);
	});

	test('the node is usable as a tool, uses the workspace key and has its codex', () => {
		expect(description.usableAsTool).toBe(true);
		expect(description.credentials).toEqual([{ name: 'multichannelApi', required: true }]);
		expect(description.codex).toMatchObject({
			categories: ['Communication'],
			resources: { primaryDocumentation: [{ url: expect.stringMatching(/^https:\/\//) }] },
		});
	});

	test('the Model resource offers Get and Get Many, each with an action', () => {
		const resource = description.properties.find((property) => property.name === 'resource');
		expect(resource?.options).toEqual([{ name: 'Model', value: 'model' }]);
		const operation = description.properties.find(
			(property) =>
				property.name === 'operation' && property.displayOptions?.show?.resource?.[0] === 'model',
		);
		expect(operation?.options).toEqual([
			expect.objectContaining({ name: 'Get', value: 'get', action: 'Get a model' }),
			expect.objectContaining({ name: 'Get Many', value: 'getAll', action: 'Get many models' }),
		]);
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
		expect(fields.map(shownFor)).toEqual([
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

const built = existsSync(path.join(PACKAGE_DIR, 'dist/nodes/Multichannel/Multichannel.node.js'));

// The built package is what n8n installs: checked whenever `npm run build` has run (CI builds before testing).
(built ? describe : describe.skip)('from dist (after npm run build)', () => {
	test('every registered file exists, loads, and its icons were copied', async () => {
		const pkg = await loadPackage({ from: 'dist' });
		expect(Object.keys(pkg.nodeTypes)).toEqual([NODE_TYPE]);
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
