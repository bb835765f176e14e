// The local stack of `npm start` and the end-to-end tests: the sandbox service and a real, pinned n8n with this
// package installed the way n8n installs a community package; one n8n process, or n8n in queue mode. Plain Node
// (never shipped). This file puts the stack together; its parts: the sandbox process (sandbox-process.mjs), one n8n
// (n8n-process.mjs) or queue mode (queue.mjs) on processes.mjs, the API clients (n8n-api.mjs), the credentials
// (credentials.mjs) and examples (examples.mjs); the runtime and the community install are in ../n8n/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import {
	buildAndPack,
	installCommunityPackage,
	installedPackageDir,
	packagedNodeTypes,
} from '../n8n/package-install.mjs';
import { readJson, writeSecretJson } from '../n8n/runtime.mjs';
import { ensureN8n } from '../n8n/setup.mjs';
import { startContractProxy } from '../contract/proxy.mjs';
import { ensureCredentials } from './credentials.mjs';
import { ensureExampleLabels, importExamples } from './examples.mjs';
import { SingleN8n } from './n8n-process.mjs';
import { freePort } from './processes.mjs';
import { postgresDataDir, QueueN8n, startPostgres, startRedis } from './queue.mjs';
import { ensureDemoGroup, ensureDemoInstance, startSandboxProcess } from './sandbox-process.mjs';

// What the stack's users (npm start, the e2e tests, the screenshot, the bench) import, from one place.
export { PACKAGE_NAME } from '../n8n/package-install.mjs';
export { listCredentials } from './credentials.mjs';
export { ensureExampleLabels, importExamples, prepareWorkflow } from './examples.mjs';
export { ensureDemoInstance } from './sandbox-process.mjs';
export { collectPages, N8nClient, OWNER, sandboxCall } from './n8n-api.mjs';

/**
 * The stack on free ports, for the headless runs (tests, screenshot, benchmark); E2E_SKIP_BUILD=1 reuses dist/.
 * `queue: true` (or `{ webhookProcesses }`) runs n8n in queue mode. MULTICHANNEL_CONTRACT_PROXY=1: the contract
 * proxy in front of the sandbox (see startStack). `webhookUrl`: as startStack's.
 */
export async function startHeadlessStack({
	dir,
	log,
	queue = false,
	sandboxArgs = [],
	webhookUrl,
	build = process.env.E2E_SKIP_BUILD !== '1',
	contractProxy = process.env.MULTICHANNEL_CONTRACT_PROXY === '1',
	importWorkflows = true,
}) {
	return await startStack({
		dir,
		sandboxPort: await freePort(),
		n8nPort: await freePort(),
		build,
		importWorkflows,
		queue,
		sandboxArgs,
		webhookUrl,
		contractProxy,
		log,
	});
}

/** n8n's processes: one `n8n start`, or PostgreSQL, Redis and the processes of queue mode. */
async function startN8nProcesses({ queue, n8nDir, n8nPort, tarball, webhookUrl, stopping, log }) {
	const install = (userFolder) => installCommunityPackage({ tarball, userFolder, log });
	if (!queue) {
		const userFolder = join(n8nDir, 'n8n');
		await install(userFolder);
		const n8n = new SingleN8n({ userFolder, port: n8nPort, logFile: join(n8nDir, 'n8n.log'), log });
		stopping.push(n8n);
		await n8n.start({ webhookUrl });
		return { n8n, userFolder };
	}
	const postgres = await startPostgres({
		dataDir: postgresDataDir(n8nDir),
		logFile: join(n8nDir, 'postgres.log'),
		log,
	});
	stopping.push(postgres.service);
	const redis = await startRedis({ dir: n8nDir, logFile: join(n8nDir, 'redis.log') });
	stopping.push(redis);
	const n8n = new QueueN8n({ dir: n8nDir, mainPort: n8nPort, postgres, redis, install, log });
	stopping.push(n8n);
	const { webhookProcesses = 1, webhookPort = 0 } = queue === true ? {} : queue;
	await n8n.start({ webhookProcesses, balancerPort: webhookPort, webhookUrl });
	return { n8n, userFolder: join(n8nDir, 'main'), postgres, redis };
}

/**
 * The whole stack: build + pack, sandbox, package installed into n8n, n8n, owner, API key, credentials,
 * demo instance, examples. `dir` holds everything kept between runs (data file, keys, n8n user folders; those
 * of queue mode in `dir/queue`). `queue`: false, true, or `{ webhookProcesses, webhookPort }`. `sandboxArgs`:
 * more options for the sandbox (`npm run sandbox -- --help`). `contractProxy`: everyone (n8n's credentials, the demo
 * instance, the tests) reaches the sandbox through the contract proxy (dev/contract/proxy.mjs), whose exchanges are
 * `contract.exchanges`. `webhookUrl`: the base URL n8n's triggers register (WEBHOOK_URL), when n8n's production
 * webhooks are reached through something in front of them (a proxy, as a public name is); by default n8n itself, or
 * the balancer of queue mode.
 */
export async function startStack({
	dir,
	sandboxPort,
	n8nPort,
	build = true,
	importWorkflows = true,
	queue = false,
	sandboxArgs = [],
	webhookUrl,
	contractProxy = false,
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
	/** Stops every part started, last first; a part that fails to stop does not keep the others running. */
	const stop = async () => {
		const failures = [];
		for (const service of stopping.reverse()) {
			await service.stop().catch((error) => failures.push(error));
		}
		stopping.length = 0;
		if (failures.length > 0) throw failures[0];
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
		let contract;
		let frontPort;
		if (contractProxy) {
			contract = await startContractProxy({ logFile: join(dir, 'prism.log') });
			stopping.push(contract);
			frontPort = await freePort();
		}
		const sandboxOptions = {
			dataFile: join(dir, 'sandbox-state.json'),
			keysFile: join(dir, 'sandbox-keys.json'),
			port: sandboxPort,
			logFile: join(dir, 'sandbox.log'),
			log,
			// Behind the proxy, the front's URL is the sandbox's public one (short URLs, invite links).
			args: contract
				? [...sandboxArgs, '--public-url', `http://127.0.0.1:${frontPort}`]
				: sandboxArgs,
		};
		const sandbox = await startSandboxProcess(sandboxOptions);
		stopping.push(sandbox.service);
		/** Stops the sandbox (kill -9 with `crash`) and starts it again on its port and data file; n8n keeps running. */
		const restartSandbox = async ({ crash = false } = {}) => {
			const index = stopping.indexOf(sandbox.service);
			await (crash ? sandbox.service.kill() : sandbox.service.stop());
			const again = await startSandboxProcess(sandboxOptions);
			sandbox.service = again.service;
			stopping[index] = again.service;
		};
		if (contract)
			sandbox.baseUrl = await contract.front(`http://127.0.0.1:${sandboxPort}`, frontPort);
		mark('sandbox', since);

		since = Date.now();
		const processes = await startN8nProcesses({
			queue,
			n8nDir,
			n8nPort,
			tarball,
			webhookUrl,
			stopping,
			log,
		});
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
		// The demo instance's group: the README's first journey writes in it (e2e/readme-journey.test.mjs).
		await ensureDemoGroup(sandbox.baseUrl, sandbox.keys.workspace, instance);
		// What n8n loaded: the node types of the package as installed into its user folder.
		const packageDir = installedPackageDir(userFolder);
		const nodeTypes = packagedNodeTypes(packageDir);
		if (importWorkflows) await ensureExampleLabels(sandbox.baseUrl, sandbox.keys.workspace);
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
			sandbox: {
				baseUrl: sandbox.baseUrl,
				keys: sandbox.keys,
				/** The sandbox process running now (restart() replaces it). */
				get service() {
					return sandbox.service;
				},
				restart: restartSandbox,
			},
			n8n: {
				url: client.baseUrl,
				/**
				 * Base URL of production webhooks: n8n itself (or what `restart({ webhookUrl })` named), or the webhook
				 * processes' balancer in queue mode.
				 */
				get webhookUrl() {
					return n8n.webhookUrl;
				},
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
				/**
				 * Stops n8n's processes and starts them again with the same user folders (and database); one n8n
				 * takes `{ webhookUrl }`, the base URL its triggers register from then on.
				 */
				restart: (options) => n8n.restart(options),
				processes: n8n,
			},
			queue: queue ? { n8n, postgres: processes.postgres, redis: processes.redis } : undefined,
			/**
			 * What runs now, as JSON (e2e/support/stack-control.mjs hands it to a file on a shared stack): the sandbox,
			 * n8n's processes by name, and in queue mode PostgreSQL, Redis and how many requests the balancer sent
			 * each webhook process.
			 */
			state: () => ({
				sandbox: sandbox.service.running,
				n8n: n8n.services
					.filter((service) => service.running)
					.map((service) => service.name)
					.sort(),
				...(queue && {
					postgres: processes.postgres.service.running,
					redis: processes.redis.service.running,
					served: Object.fromEntries(
						n8n.webhooks.map((hook) => [hook.name, n8n.balancer.served.get(hook.port) ?? 0]),
					),
				}),
			}),
			credentials,
			instance,
			contract: contract && { exchanges: contract.exchanges },
			nodeTypes,
			examples,
			timings,
			stop,
		};
	} catch (error) {
		// The error that stopped the start is the one to see, not one of the clean-up's.
		await stop().catch((stopError) => log(`clean-up after a failed start: ${stopError.message}`));
		throw error;
	}
}
