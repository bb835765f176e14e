// The local stack of `npm start` and the end-to-end tests: the sandbox service and a real, pinned n8n with this
// package installed the way n8n installs a community package. Plain Node (never shipped).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	chmodSync,
	createWriteStream,
	existsSync,
	mkdirSync,
	readFileSync,
	readdirSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { ensureN8n } from '../setup-n8n.mjs';
import { N8N_BIN, N8N_VERSION, NODE24, REPO, node24Env, run } from './runtime.mjs';

export const PACKAGE_NAME = 'n8n-nodes-multichannel';
export const EXAMPLES_DIR = join(REPO, 'examples');
export const SANDBOX_MAIN = join(REPO, 'node_modules', '.cache', 'sandbox', 'main.js');

/** The owner account set up on n8n's first start (a local instance on loopback only). */
export const OWNER = {
	email: 'owner@multichannel.local',
	password: 'Multichannel-Sandbox-1',
	firstName: 'Sandbox',
	lastName: 'Owner',
};

/** The three credentials, by credential type: the key kind each takes and the name it gets in n8n. */
export const CREDENTIALS = {
	multichannelApi: { key: 'workspace', name: 'Multichannel sandbox (workspace key)' },
	multichannelShortLinkApi: { key: 'shortLink', name: 'Multichannel sandbox (short-link key)' },
	multichannelAutomationApi: { key: 'automation', name: 'Multichannel sandbox (automation key)' },
};

/** The sandbox instance the examples send from (taken through connect → scan on the first start). */
export const DEMO_INSTANCE = { name: 'Demo phone', phoneNumber: '+14155550100' };

/** One browser id for every REST call: n8n binds its session cookie to the `browser-id` header. */
const BROWSER_ID = 'multichannel-e2e';

/** n8n settings for a quiet, local instance: no calls home, fixed address. */
function n8nEnvironment({ userFolder, port, brokerPort }) {
	return node24Env({
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		// The task runners' broker (Code node) listens on a port of its own: any free one.
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
		WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
		N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_PUBLIC_API_DISABLED: 'false',
		N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
		N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'info',
		N8N_LOG_OUTPUT: 'console',
		DB_TYPE: 'sqlite',
		GENERIC_TIMEZONE: 'UTC',
		NODE_ENV: 'production',
	});
}

export async function freePort() {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

async function portInUse(port) {
	return await new Promise((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(true));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
	});
}

function readJson(path, fallback) {
	return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : fallback;
}

function writeSecretJson(path, value) {
	writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
	chmodSync(path, 0o600);
}

/** A child in a process group of its own, so that stopping it ends everything it started. */
class Service {
	constructor(name, command, args, { env, cwd, logFile }) {
		this.name = name;
		this.output = '';
		this.log = createWriteStream(logFile, { flags: 'a' });
		this.child = spawn(command, args, {
			cwd,
			env,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		this.exited = new Promise((resolve) =>
			this.child.once('exit', (code, signal) => resolve({ code, signal })),
		);
		this.child.once('error', (error) => {
			this.output += `\n${error.message}\n`;
		});
		for (const stream of [this.child.stdout, this.child.stderr]) {
			stream.setEncoding('utf8');
			stream.on('data', (chunk) => {
				this.output = (this.output + chunk).slice(-200_000);
				this.log.write(chunk);
			});
		}
	}

	get running() {
		return this.child.exitCode === null && this.child.signalCode === null;
	}

	/** Resolves with the first match of `pattern` in the output; fails when the process exits or time runs out. */
	async waitForOutput(pattern, timeoutMs) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const match = pattern.exec(this.output);
			if (match) return match;
			if (!this.running) throw new Error(`${this.name} exited early:\n${this.output.slice(-3000)}`);
			if (Date.now() > deadline) {
				throw new Error(
					`${this.name}: no ${pattern} within ${timeoutMs} ms:\n${this.output.slice(-3000)}`,
				);
			}
			await sleep(100);
		}
	}

	signalGroup(signal) {
		try {
			process.kill(-this.child.pid, signal);
		} catch {
			// The group is gone already.
		}
	}

	/** SIGTERM to the whole group, SIGKILL after `graceMs`; resolves once the process has exited. */
	async stop(graceMs = 15_000) {
		if (this.child.pid === undefined) return;
		if (this.running) {
			this.signalGroup('SIGTERM');
			const timedOut = await Promise.race([
				this.exited.then(() => false),
				sleep(graceMs).then(() => true),
			]);
			if (timedOut) {
				this.signalGroup('SIGKILL');
				await this.exited;
			}
		}
		// Helpers of the group (n8n's task runner) may outlive the main process by a moment.
		this.signalGroup('SIGKILL');
		await new Promise((resolve) => this.log.end(resolve));
	}
}

/** n8n's REST API (session cookie) and public API (API key) on one base URL. */
export class N8nClient {
	constructor(baseUrl) {
		this.baseUrl = baseUrl;
		this.cookie = undefined;
		this.apiKey = undefined;
	}

	async request(method, path, { body, headers = {}, expect } = {}) {
		const response = await fetch(`${this.baseUrl}${path}`, {
			method,
			headers: {
				accept: 'application/json',
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
				...headers,
			},
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(60_000),
		});
		const text = await response.text();
		let json;
		try {
			json = text ? JSON.parse(text) : undefined;
		} catch {
			json = undefined;
		}
		if (expect !== undefined && response.status !== expect) {
			throw new Error(
				`${method} ${path}: expected ${expect}, got ${response.status} ${text.slice(0, 1000)}`,
			);
		}
		return { status: response.status, json, text, headers: response.headers };
	}

	/** REST (`/rest/...`) with the owner's session. */
	async rest(method, path, body, expect = 200) {
		const response = await this.request(method, `/rest${path}`, {
			body,
			expect,
			headers: { 'browser-id': BROWSER_ID, ...(this.cookie ? { cookie: this.cookie } : {}) },
		});
		const setCookie = response.headers.get('set-cookie');
		const auth = setCookie && /n8n-auth=[^;]+/.exec(setCookie);
		if (auth) this.cookie = auth[0];
		return response.json?.data ?? response.json;
	}

	/** Public API (`/api/v1/...`) with the API key. */
	async api(method, path, body, expect = 200) {
		const response = await this.request(method, `/api/v1${path}`, {
			body,
			expect,
			headers: { 'x-n8n-api-key': this.apiKey },
		});
		return response.json;
	}

	async waitUntilReady(service, timeoutMs) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			if (!service.running) throw new Error(`n8n exited early:\n${service.output.slice(-4000)}`);
			try {
				const response = await fetch(`${this.baseUrl}/healthz/readiness`, {
					signal: AbortSignal.timeout(2000),
				});
				if (response.ok) return;
			} catch {
				// Not listening yet.
			}
			if (Date.now() > deadline) {
				throw new Error(
					`n8n was not ready within ${timeoutMs} ms:\n${service.output.slice(-4000)}`,
				);
			}
			await sleep(250);
		}
	}

	/** Sets the owner up on a fresh instance, or logs in with it. */
	async ownerSession() {
		const settings = await this.rest('GET', '/settings');
		if (settings?.userManagement?.showSetupOnFirstLoad) {
			await this.rest('POST', '/owner/setup', OWNER);
			return 'created';
		}
		await this.rest('POST', '/login', {
			emailOrLdapLoginId: OWNER.email,
			password: OWNER.password,
		});
		return 'logged in';
	}

	/** Uses the saved API key if n8n still accepts it, otherwise creates one with every scope the owner has. */
	async ensureApiKey(saved) {
		if (saved) {
			this.apiKey = saved;
			const probe = await this.request('GET', '/api/v1/workflows?limit=1', {
				headers: { 'x-n8n-api-key': saved },
			});
			if (probe.status === 200) return { apiKey: saved, created: false };
		}
		const scopes = await this.rest('GET', '/api-keys/scopes');
		const created = await this.rest('POST', '/api-keys', {
			label: `npm start ${new Date().toISOString().slice(0, 19).replace('T', ' ')}`,
			scopes,
			expiresAt: null,
		});
		this.apiKey = created.rawApiKey;
		if (!this.apiKey)
			throw new Error(`n8n returned no API key: ${JSON.stringify(created).slice(0, 300)}`);
		return { apiKey: this.apiKey, created: true };
	}

	async listAll(path) {
		const separator = path.includes('?') ? '&' : '?';
		return await collectPages((cursor) =>
			this.api('GET', `${path}${separator}limit=250${cursor ? `&cursor=${cursor}` : ''}`),
		);
	}
}

/** Every entry of a cursor-paged list: `{ data, nextCursor }` pages, as n8n's public API and the sandbox answer. */
export async function collectPages(fetchPage) {
	const all = [];
	let cursor;
	do {
		const page = await fetchPage(cursor);
		all.push(...page.data);
		cursor = page.nextCursor;
	} while (cursor);
	return all;
}

/** The sandbox's API with one of its keys (for the stack's own set-up and the tests' checks). */
export async function sandboxCall(baseUrl, key, method, path, body, expect) {
	const response = await fetch(`${baseUrl}${path}`, {
		method,
		headers: {
			authorization: `Bearer ${key}`,
			accept: 'application/json',
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
		signal: AbortSignal.timeout(30_000),
	});
	const text = await response.text();
	const json = text ? JSON.parse(text) : undefined;
	const ok = expect === undefined ? response.ok : response.status === expect;
	if (!ok) throw new Error(`sandbox ${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
	return json;
}

/** The node types a built package declares (`n8n-nodes-multichannel.<name>`), read from its dist files. */
export function packagedNodeTypes(packageDir = REPO) {
	const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
	const types = new Set();
	for (const file of pkg.n8n?.nodes ?? []) {
		const path = join(packageDir, file);
		if (!existsSync(path)) continue;
		const source = readFileSync(path, 'utf8');
		const match = /name:\s*'([A-Za-z0-9]+)'/.exec(source.slice(source.indexOf('description')));
		if (match) types.add(`${PACKAGE_NAME}.${match[1]}`);
	}
	return types;
}

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
 * Builds the package and the sandbox bundle, and packs the package as npm would publish it.
 * Returns the tarball's path.
 */
export async function buildAndPack({ outDir, log, build = true }) {
	if (build) {
		log('building the package (npm run build) and the sandbox (tsup)');
		await run('npm', ['run', 'build', '--silent'], { cwd: REPO, capture: true });
		await run('npx', ['tsup', '--silent'], { cwd: REPO, capture: true });
	}
	mkdirSync(outDir, { recursive: true });
	for (const file of readdirSync(outDir)) if (file.endsWith('.tgz')) rmSync(join(outDir, file));
	const out = await run('npm', ['pack', '--json', '--pack-destination', outDir], {
		cwd: REPO,
		capture: true,
		env: { ...process.env, npm_config_ignore_scripts: 'true' },
	});
	const [{ filename }] = JSON.parse(out);
	return join(outDir, filename);
}

/**
 * Installs the tarball into `<user folder>/.n8n/nodes` as n8n 2.40's community-package installer does
 * (modules/community-packages: `npm pack` → extract into node_modules/<name> → strip dev/peer/optional
 * dependencies → `npm install` there → record it in nodes/package.json); n8n then loads it on start from
 * `nodes/node_modules` and names its node types `n8n-nodes-multichannel.<node>`. Skips the work when the
 * same tarball is installed already.
 */
export async function installCommunityPackage({ tarball, userFolder, log }) {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const target = join(nodesDir, 'node_modules', PACKAGE_NAME);
	const digest = createHash('sha256').update(readFileSync(tarball)).digest('hex');
	const marker = join(target, '.installed-from-tarball');
	if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === digest) {
		log('package unchanged since the last install into n8n');
		return { installed: false, dir: target };
	}
	log(`installing ${PACKAGE_NAME} into ${nodesDir} as a community package`);
	rmSync(target, { recursive: true, force: true });
	mkdirSync(target, { recursive: true });
	await run('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
	const pkgPath = join(target, 'package.json');
	const { devDependencies, peerDependencies, optionalDependencies, ...pkg } = JSON.parse(
		readFileSync(pkgPath, 'utf8'),
	);
	writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
	await run(
		'npm',
		[
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
			'--loglevel=error',
		],
		{ cwd: target, capture: true },
	);
	const rootPath = join(nodesDir, 'package.json');
	const root = readJson(rootPath, { name: 'installed-nodes', private: true, dependencies: {} });
	root.dependencies = { ...root.dependencies, [PACKAGE_NAME]: pkg.version };
	writeFileSync(rootPath, `${JSON.stringify(root, null, 2)}\n`);
	writeFileSync(marker, `${digest}\n`);
	return { installed: true, dir: target };
}

/**
 * Starts the sandbox with a data file. Its keys are printed on the first start only; they are kept in
 * `keysFile` (mode 0600) so that later starts can still use them.
 */
export async function startSandbox({ dataFile, keysFile, port, logFile, log }) {
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
		[SANDBOX_MAIN, '--port', String(port), '--data-file', dataFile],
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

export async function startN8n({ userFolder, port, logFile, log }) {
	if (await portInUse(port))
		throw new Error(`port ${port} is in use: is another n8n or \`npm start\` running?`);
	mkdirSync(userFolder, { recursive: true });
	log(`starting n8n ${N8N_VERSION} on http://127.0.0.1:${port} (user folder ${userFolder})`);
	const service = new Service('n8n', NODE24, [N8N_BIN, 'start'], {
		cwd: userFolder,
		env: n8nEnvironment({ userFolder, port, brokerPort: await freePort() }),
		logFile,
	});
	const client = new N8nClient(`http://127.0.0.1:${port}`);
	try {
		await client.waitUntilReady(service, 180_000);
	} catch (error) {
		await service.stop();
		throw error;
	}
	return { service, client };
}

/** The three credentials for the sandbox's keys, created through the public API unless they exist already. */
export async function ensureCredentials(client, { baseUrl, keys }) {
	const existing = await client.listAll('/credentials');
	const result = {};
	for (const [type, { key, name }] of Object.entries(CREDENTIALS)) {
		let credential = existing.find(
			(candidate) => candidate.type === type && candidate.name === name,
		);
		if (!credential) {
			credential = await client.api('POST', '/credentials', {
				name,
				type,
				data: { baseUrl, apiKey: keys[key] },
			});
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

/** The stack on free ports, for the headless runs (tests, screenshot); E2E_SKIP_BUILD=1 reuses dist/. */
export async function startHeadlessStack({ dir, log }) {
	return await startStack({
		dir,
		sandboxPort: await freePort(),
		n8nPort: await freePort(),
		build: process.env.E2E_SKIP_BUILD !== '1',
		log,
	});
}

/**
 * The whole stack: build + pack, sandbox, package installed into n8n, n8n, owner, API key, credentials,
 * demo instance, examples. `dir` holds everything kept between runs (data file, keys, n8n user folder).
 */
export async function startStack({
	dir,
	sandboxPort,
	n8nPort,
	build = true,
	importWorkflows = true,
	log = (message) => process.stderr.write(`${message}\n`),
}) {
	const timings = {};
	const started = Date.now();
	const mark = (name, since) => (timings[name] = Math.round((Date.now() - since) / 100) / 10);
	mkdirSync(dir, { recursive: true });
	const stateFile = join(dir, 'state.json');
	const state = readJson(stateFile, {});
	const userFolder = join(dir, 'n8n');
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
		});
		stopping.push(sandbox.service);
		mark('sandbox', since);

		since = Date.now();
		const installed = await installCommunityPackage({ tarball, userFolder, log });
		mark('install', since);

		since = Date.now();
		const n8n = await startN8n({ userFolder, port: n8nPort, logFile: join(dir, 'n8n.log'), log });
		stopping.push(n8n.service);
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
		const nodeTypes = packagedNodeTypes(installed.dir);
		const examples = importWorkflows
			? await importExamples(client, { credentials, instance, nodeTypes })
			: { imported: [], kept: [], skipped: [] };
		mark('setup', since);
		timings.total = Math.round((Date.now() - started) / 100) / 10;

		return {
			dir,
			userFolder,
			tarball,
			sandbox: { baseUrl: sandbox.baseUrl, keys: sandbox.keys, service: sandbox.service },
			n8n: { url: client.baseUrl, client, service: n8n.service, owner },
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
