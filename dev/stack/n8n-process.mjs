// n8n's processes in the local stack: one `n8n start` (the default), or the main, webhook and worker processes of
// queue mode (queue.mjs). Plain Node (never shipped).
import { mkdirSync } from 'node:fs';

import { N8nClient } from './n8n-api.mjs';
import { N8N_BIN, N8N_VERSION, NODE24, node24Env } from '../n8n/runtime.mjs';
import { freePort, portInUse, Service } from './processes.mjs';

/**
 * n8n settings for a quiet, local instance: no calls home, loopback only. `webhookUrl` is the base URL triggers
 * register (the process itself unless a webhook process serves production webhooks); `extra` adds or overrides.
 * n8n 2.x runs without its workflow publication service, so that every start activates the active workflows
 * again and each webhook trigger checks its webhook at the service (issue 32).
 */
export function n8nEnvironment({ userFolder, port, brokerPort, webhookUrl, extra = {} }) {
	return node24Env({
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		// The task runners' broker (Code node) listens on a port of its own: any free one.
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
		WEBHOOK_URL: webhookUrl ?? `http://127.0.0.1:${port}/`,
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
		// With the publication service (2.x's default) a start never calls a webhook trigger's checkExists/create.
		N8N_USE_WORKFLOW_PUBLICATION_SERVICE:
			process.env.N8N_USE_WORKFLOW_PUBLICATION_SERVICE ?? 'false',
		N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'info',
		N8N_LOG_OUTPUT: 'console',
		DB_TYPE: 'sqlite',
		GENERIC_TIMEZONE: 'UTC',
		NODE_ENV: 'production',
		...extra,
	});
}

/** What each n8n command logs once it serves (the same in n8n 1.x and 2.x). */
const READY_LINES = {
	start: /Editor is now accessible via/,
	webhook: /Webhook listener waiting for requests/,
	worker: /n8n worker is now ready/,
};

/**
 * Starts one n8n process (`command`: start, webhook or worker) and waits for its own log to say that it
 * listens on `port` (so that another process on a port taken in the meantime is never mistaken for it) and
 * then that it is ready: after migrations, routes and activation, which `/healthz/readiness` does not wait for
 * in every version. Stops it again when it does not come up.
 */
export async function startN8nProcess({
	name,
	command,
	args = [],
	userFolder,
	env,
	port,
	logFile,
}) {
	mkdirSync(userFolder, { recursive: true });
	const service = new Service(name, NODE24, [N8N_BIN, command, ...args], {
		cwd: userFolder,
		env,
		logFile,
	});
	const listening =
		command === 'worker'
			? new RegExp(`worker server listening on port ${port}\\b`)
			: new RegExp(`n8n ready on [^,]+, port ${port}\\b`);
	try {
		await service.waitForOutput(listening, 180_000);
		await service.waitForOutput(READY_LINES[command], 180_000);
	} catch (error) {
		await service.stop();
		throw error;
	}
	return service;
}

/**
 * The default: one `n8n start` on `port`, with SQLite in its user folder. Same shape as QueueN8n (queue.mjs):
 * `client`, `main`, `services`, `started`, `webhookUrl`, `start()`, `restart()`, `stop()`, `kill()`.
 */
export class SingleN8n {
	constructor({ userFolder, port, logFile, log }) {
		Object.assign(this, { userFolder, port, logFile, log });
		this.client = new N8nClient(`http://127.0.0.1:${port}`);
		/**
		 * The base URL triggers register (WEBHOOK_URL): the process itself, unless `start({ webhookUrl })` named
		 * another (a proxy in front of it, as a public name is).
		 */
		this.webhookUrl = this.client.baseUrl;
		this.main = undefined;
		/** Every n8n process started, for the check that none is left. */
		this.started = [];
	}

	get services() {
		return [this.main].filter(Boolean);
	}

	/** `webhookUrl`: from now on, the base URL triggers register (kept for later starts). */
	async start({ webhookUrl = this.webhookUrl } = {}) {
		this.webhookUrl = webhookUrl.replace(/\/+$/, '');
		if (await portInUse(this.port))
			throw new Error(`port ${this.port} is in use: is another n8n or \`npm start\` running?`);
		this.log(
			`starting n8n ${N8N_VERSION} on ${this.client.baseUrl} (user folder ${this.userFolder})`,
		);
		this.main = await startN8nProcess({
			name: 'n8n',
			command: 'start',
			userFolder: this.userFolder,
			env: n8nEnvironment({
				userFolder: this.userFolder,
				port: this.port,
				brokerPort: await freePort(),
				webhookUrl: `${this.webhookUrl}/`,
			}),
			port: this.port,
			logFile: this.logFile,
		});
		this.started.push(this.main);
	}

	async stop() {
		await this.main?.stop();
		this.main = undefined;
	}

	/** SIGKILL to n8n and its task runners, as `kill -9`: no shutdown, whatever it was doing is cut off. */
	async kill() {
		await this.main?.kill();
		this.main = undefined;
	}

	/** Stops n8n and starts it again with the same user folder (`options`: as start's). */
	async restart(options) {
		await this.stop();
		await this.start(options);
	}
}
