// The local stack of `npm start` and the end-to-end tests: the sandbox service and a real, pinned n8n with this
// package installed the way n8n installs a community package; one n8n process, or n8n in queue mode. Plain Node
// (never shipped). The processes are in processes.mjs, n8n-process.mjs and queue.mjs, the API clients in n8n-api.mjs, packing
// and installing in ../n8n/package-install.mjs.
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { ensureN8n } from '../n8n/setup.mjs';
import {
	buildAndPack,
	installCommunityPackage,
	installedPackageDir,
	PACKAGE_NAME,
	packagedNodeTypes,
} from '../n8n/package-install.mjs';
import { sandboxCall } from './n8n-api.mjs';
import { SingleN8n } from './n8n-process.mjs';
import { postgresDataDir, QueueN8n, startPostgres, startRedis } from './queue.mjs';
import { readJson, REPO, writeSecretJson } from '../n8n/runtime.mjs';
import { freePort, portInUse, Service } from './processes.mjs';

// What callers of the earlier, single module import from here.
export {
	buildAndPack,
	installCommunityPackage,
	PACKAGE_NAME,
	packagedNodeTypes,
} from '../n8n/package-install.mjs';
export { collectPages, N8nClient, OWNER, sandboxCall } from './n8n-api.mjs';
export { startN8n } from './n8n-process.mjs';
export { freePort } from './processes.mjs';

export const EXAMPLES_DIR = join(REPO, 'examples');
export const SANDBOX_MAIN = join(REPO, 'node_modules', '.cache', 'sandbox', 'main.js');

/** The three credentials, by credential type: the key kind each takes and the name it gets in n8n. */
export const CREDENTIALS = {
	multichannelApi: { key: 'workspace', name: 'Multichannel sandbox (workspace key)' },
	multichannelShortLinkApi: { key: 'shortLink', name: 'Multichannel sandbox (short-link key)' },
	multichannelAutomationApi: { key: 'automation', name: 'Multichannel sandbox (automation key)' },
};

/** The sandbox instance the examples send from (taken through connect → scan on the first start). */
export const DEMO_INSTANCE = { name: 'Demo phone', phoneNumber: '+14155550100' };

/** Example workflows, each with the package node types it uses. */
export function loadExamples(dir = EXAMPLES_DIR) {
	return readdirSync(dir)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => {
			const workflow = JSON.parse(readFileSync(join(dir, file), 'utf8'));
			const types = [...new Set(workflow.nodes.map((node) => node.type))].filter((type) =>
				type.startsWith(`${PACKAGE_NAME}.`),
			);
			return { file, workflow, types };
		});
}

/**
 * A workflow ready for n8n's public API: credentials pointed at the created ones (by type), empty instance
 * pickers set to the demo instance, and only the fields `POST /workflows` accepts.
 */
export function prepareWorkflow(workflow, { credentials, instance }) {
	const nodes = workflow.nodes.map((node) => {
		const copy = structuredClone(node);
		if (copy.credentials) {
			for (const type of Object.keys(copy.credentials)) {
				if (credentials[type]) copy.credentials[type] = credentials[type];
			}
		}
		const picker = copy.parameters?.instanceId;
		if (instance && picker?.__rl && picker.mode === 'list' && !picker.value) {
			copy.parameters.instanceId = {
				__rl: true,
				mode: 'list',
				value: instance.id,
				cachedResultName: `${instance.name} (connected)`,
			};
		}
		return copy;
	});
	return {
		name: workflow.name,
		nodes,
		connections: workflow.connections,
		settings: workflow.settings ?? { executionOrder: 'v1' },
	};
}

/**
 * Starts the sandbox with a data file. Its keys are printed on the first start only; they are kept in
 * `keysFile` (mode 0600) so that later starts can still use them.
 */
export async function startSandbox({ dataFile, keysFile, port, logFile, log, args = [] }) {
	if (await portInUse(port))
		throw new Error(`port ${port} is in use: is another sandbox or \`npm start\` running?`);
	let keys = readJson(keysFile, undefined);
	if (existsSync(dataFile) && !keys) {
		throw new Error(
			`${dataFile} exists but the keys printed on its first start were not kept in ${keysFile}; delete the data file to start afresh`,
		);
	}
	if (!existsSync(dataFile)) keys = undefined;
	const service = new Service(
		'sandbox',
		process.execPath,
		[SANDBOX_MAIN, '--port', String(port), '--data-file', dataFile, ...args],
		{
			cwd: REPO,
			env: process.env,
			logFile,
		},
	);
	const [, baseUrl] = await service.waitForOutput(/listening on (http:\/\/\S+)/, 30_000);
	if (/A new workspace was created/.test(service.output)) {
		await service.waitForOutput(/Automation[^\n]*: mca_\S+/, 5_000);
		const find = (prefix) => new RegExp(`(${prefix}_[A-Za-z0-9_-]+)`).exec(service.output)?.[1];
		keys = { workspace: find('mcw'), shortLink: find('mcl'), automation: find('mca') };
		if (!keys.workspace || !keys.shortLink || !keys.automation) {
			await service.stop();
			throw new Error(`could not read the sandbox's keys from its output:\n${service.output}`);
		}
		writeSecretJson(keysFile, keys);
	}
	log(`sandbox up at ${baseUrl} (state in ${dataFile})`);
	return { service, baseUrl, keys };
}

/** A connected sandbox instance to send from: the existing "Demo phone", or a new one taken through connect → scan. */
export async function ensureDemoInstance(baseUrl, workspaceKey) {
	const list = await sandboxCall(baseUrl, workspaceKey, 'GET', '/api/v1/instances?limit=100');
	let instance = list.data.find((candidate) => candidate.name === DEMO_INSTANCE.name);
	if (!instance) {
		instance = await sandboxCall(baseUrl, workspaceKey, 'POST', '/api/v1/instances', {
			name: DEMO_INSTANCE.name,
		});
	}
	if (instance.status !== 'connected') {
		await sandboxCall(baseUrl, workspaceKey, 'POST', `/api/v1/instances/${instance.id}/connect`, {
			method: 'qr',
		});
		instance = await sandboxCall(
			baseUrl,
			workspaceKey,
			'POST',
			`/sandbox/instances/${instance.id}/scan`,
			{
				phoneNumber: DEMO_INSTANCE.phoneNumber,
			},
		);
	}
	return instance;
}

/** Whether n8n's public API lists and changes credentials: n8n 2.x's does; 1.x's only creates them. */
async function hasCredentialsApi(client) {
	const probe = await client.request('GET', '/api/v1/credentials?limit=1', {
		headers: { 'x-n8n-api-key': client.apiKey },
	});
	return probe.status === 200;
}

/** Every credential n8n holds: through the public API, or n8n 1.x's REST API, which also takes changes. */
export async function listCredentials(client) {
	return (await hasCredentialsApi(client))
		? await client.listAll('/credentials')
		: await client.rest('GET', '/credentials');
}

/**
 * The three credentials for the sandbox's keys: created through the public API, or, when they exist, pointed at
 * this sandbox (`PATCH /credentials/{id}` replaces their data), so that a start with another sandbox port or new
 * keys leaves no credential on the old ones. Workflows keep using them by id.
 */
export async function ensureCredentials(client, { baseUrl, keys }) {
	const publicApi = await hasCredentialsApi(client);
	const existing = await listCredentials(client);
	const result = {};
	for (const [type, { key, name }] of Object.entries(CREDENTIALS)) {
		const data = { baseUrl, apiKey: keys[key] };
		let credential = existing.find(
			(candidate) => candidate.type === type && candidate.name === name,
		);
		if (credential && publicApi) {
			await client.api('PATCH', `/credentials/${credential.id}`, { data });
		} else if (credential) {
			await client.rest('PATCH', `/credentials/${credential.id}`, { name, type, data });
		} else if (publicApi) {
			credential = await client.api('POST', '/credentials', { name, type, data });
		} else {
			credential = await client.rest('POST', '/credentials', { name, type, data });
		}
		result[type] = { id: credential.id, name: credential.name };
	}
	return result;
}

/**
 * Imports the example workflows whose node types the package provides, unless a workflow of that name
 * exists. Returns what was imported, kept, and skipped (with the missing node types).
 */
export async function importExamples(client, { credentials, instance, nodeTypes }) {
	const existing = await client.listAll('/workflows');
	const report = { imported: [], kept: [], skipped: [] };
	for (const { file, workflow, types } of loadExamples()) {
		const missing = types.filter((type) => !nodeTypes.has(type));
		if (missing.length > 0) {
			report.skipped.push({ file, missing });
			continue;
		}
		const found = existing.find(
			(candidate) => candidate.name === workflow.name && !candidate.isArchived,
		);
		if (found) {
			report.kept.push({ file, id: found.id });
			continue;
		}
		const created = await client.api(
			'POST',
			'/workflows',
			prepareWorkflow(workflow, { credentials, instance }),
		);
		report.imported.push({ file, id: created.id });
	}
	return report;
}

/**
 * The stack on free ports, for the headless runs (tests, screenshot, benchmark); E2E_SKIP_BUILD=1 reuses dist/.
 * `queue: true` (or `{ webhookProcesses }`) runs n8n in queue mode.
 */
export async function startHeadlessStack({
	dir,
	log,
	queue = false,
	sandboxArgs = [],
	build = process.env.E2E_SKIP_BUILD !== '1',
}) {
	return await startStack({
		dir,
		sandboxPort: await freePort(),
		n8nPort: await freePort(),
		build,
		queue,
		sandboxArgs,
		log,
	});
}

/** n8n's processes: one `n8n start`, or PostgreSQL, Redis and the processes of queue mode. */
async function startN8nProcesses({ queue, n8nDir, n8nPort, tarball, stopping, log }) {
	const install = (userFolder) => installCommunityPackage({ tarball, userFolder, log });
	if (!queue) {
		const userFolder = join(n8nDir, 'n8n');
		await install(userFolder);
		const n8n = new SingleN8n({ userFolder, port: n8nPort, logFile: join(n8nDir, 'n8n.log'), log });
		stopping.push(n8n);
		await n8n.start();
		return { n8n, userFolder };
	}
	const postgres = await startPostgres({
		dataDir: postgresDataDir(n8nDir),
		logFile: join(n8nDir, 'postgres.log'),
		log,
	});
	stopping.push(postgres.service);
	const redis = await startRedis({ dir: n8nDir, logFile: join(n8nDir, 'redis.log') });
	stopping.push(redis.service);
	const n8n = new QueueN8n({ dir: n8nDir, mainPort: n8nPort, postgres, redis, install, log });
	stopping.push(n8n);
	const { webhookProcesses = 1, webhookPort = 0 } = queue === true ? {} : queue;
	await n8n.start({ webhookProcesses, balancerPort: webhookPort });
	return { n8n, userFolder: join(n8nDir, 'main'), postgres, redis };
}

/**
 * The whole stack: build + pack, sandbox, package installed into n8n, n8n, owner, API key, credentials,
 * demo instance, examples. `dir` holds everything kept between runs (data file, keys, n8n user folders; those
 * of queue mode in `dir/queue`). `queue`: false, true, or `{ webhookProcesses, webhookPort }`. `sandboxArgs`:
 * more options for the sandbox (`npm run sandbox -- --help`).
 */
export async function startStack({
	dir,
	sandboxPort,
	n8nPort,
	build = true,
	importWorkflows = true,
	queue = false,
	sandboxArgs = [],
	log = (message) => process.stderr.write(`${message}\n`),
}) {
	const timings = {};
	const started = Date.now();
	const mark = (name, since) => (timings[name] = Math.round((Date.now() - since) / 100) / 10);
	const n8nDir = queue ? join(dir, 'queue') : dir;
	mkdirSync(n8nDir, { recursive: true });
	const stateFile = join(n8nDir, 'state.json');
	const state = readJson(stateFile, {});
	const stopping = [];
	const stop = async () => {
		for (const service of stopping.reverse()) await service.stop();
		stopping.length = 0;
	};

	try {
		let since = Date.now();
		const runtime = await ensureN8n();
		mark('runtime', since);
		if (runtime.installed) log(`installed Node 24 and n8n in ${runtime.info.seconds.total} s`);

		since = Date.now();
		const tarball = await buildAndPack({ outDir: join(dir, 'pack'), log, build });
		mark('build', since);

		since = Date.now();
		const sandbox = await startSandbox({
			dataFile: join(dir, 'sandbox-state.json'),
			keysFile: join(dir, 'sandbox-keys.json'),
			port: sandboxPort,
			logFile: join(dir, 'sandbox.log'),
			log,
			args: sandboxArgs,
		});
		stopping.push(sandbox.service);
		mark('sandbox', since);

		since = Date.now();
		const processes = await startN8nProcesses({ queue, n8nDir, n8nPort, tarball, stopping, log });
		const { n8n, userFolder } = processes;
		mark('n8n', since);

		since = Date.now();
		const { client } = n8n;
		const owner = await client.ownerSession();
		const { apiKey } = await client.ensureApiKey(state.apiKey);
		state.apiKey = apiKey;
		writeSecretJson(stateFile, state);
		const credentials = await ensureCredentials(client, sandbox);
		const instance = await ensureDemoInstance(sandbox.baseUrl, sandbox.keys.workspace);
		// What n8n loaded: the node types of the package as installed into its user folder.
		const packageDir = installedPackageDir(userFolder);
		const nodeTypes = packagedNodeTypes(packageDir);
		const examples = importWorkflows
			? await importExamples(client, { credentials, instance, nodeTypes })
			: { imported: [], kept: [], skipped: [] };
		mark('setup', since);
		timings.total = Math.round((Date.now() - started) / 100) / 10;

		return {
			dir,
			userFolder,
			packageDir,
			tarball,
			sandbox: { baseUrl: sandbox.baseUrl, keys: sandbox.keys, service: sandbox.service },
			n8n: {
				url: client.baseUrl,
				/** Base URL of production webhooks: n8n itself, or the webhook processes' balancer in queue mode. */
				webhookUrl: n8n.webhookUrl,
				client,
				owner,
				/** The main process (`n8n start`) as it runs now. */
				get service() {
					return n8n.main;
				},
				/** The n8n processes running now, and every one started since the stack started. */
				get services() {
					return n8n.services;
				},
				get started() {
					return n8n.started;
				},
				/** Stops n8n's processes and starts them again with the same user folders (and database). */
				restart: () => n8n.restart(),
				processes: n8n,
			},
			queue: queue ? { n8n, postgres: processes.postgres, redis: processes.redis } : undefined,
			credentials,
			instance,
			nodeTypes,
			examples,
			timings,
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}
