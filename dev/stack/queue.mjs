// n8n in queue mode, as users scale it: PostgreSQL and Redis, then the main process (`n8n start`: editor, API,
// activation), webhook processes (`n8n webhook`: production webhooks, behind a round-robin balancer whose URL is
// WEBHOOK_URL) and a worker (`n8n worker`: runs the executions taken from Redis). Plain Node (never shipped).
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startBalancer } from './balancer.mjs';
import { N8nClient } from './n8n-api.mjs';
import { n8nEnvironment, startN8nProcess } from './n8n-process.mjs';
import { readJson, run, writeSecretJson } from '../n8n/runtime.mjs';
import { freePort, portInUse, Service } from './processes.mjs';

const PG_ROOT = '/usr/lib/postgresql';

/** Debian's PostgreSQL server binaries (the newest installed version), or $MULTICHANNEL_PG_BIN. */
function postgresBin() {
	if (process.env.MULTICHANNEL_PG_BIN) return process.env.MULTICHANNEL_PG_BIN;
	const versions = existsSync(PG_ROOT)
		? readdirSync(PG_ROOT)
				.filter((version) => existsSync(join(PG_ROOT, version, 'bin', 'postgres')))
				.sort((a, b) => Number(b) - Number(a))
		: [];
	if (versions.length === 0) {
		throw new Error(
			`no PostgreSQL server in ${PG_ROOT}/*/bin: install it (apt-get install postgresql) or set MULTICHANNEL_PG_BIN`,
		);
	}
	return join(PG_ROOT, versions[0], 'bin');
}

/** PostgreSQL refuses to run as root: then it runs as the `postgres` user that Debian's package creates. */
function postgresAccount() {
	if (process.getuid() !== 0) return {};
	const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
	return { uid: id('-u'), gid: id('-g') };
}

/**
 * Where the database lives: in the stack's folder, except as root, where the `postgres` user could not enter it
 * (root's home is private): then in the temporary folder, named after the stack's folder.
 */
export function postgresDataDir(stateDir) {
	if (process.getuid() !== 0) return join(stateDir, 'postgres');
	const name = createHash('sha256').update(stateDir).digest('hex').slice(0, 12);
	return join(tmpdir(), `multichannel-postgres-${name}`);
}

/** A PostgreSQL server on a free loopback port (TCP only), with a database `n8n` owned by the role `n8n`. */
export async function startPostgres({ dataDir, logFile, log }) {
	const bin = postgresBin();
	const account = postgresAccount();
	const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
	if (fresh) {
		log(`creating a PostgreSQL cluster in ${dataDir}`);
		rmSync(dataDir, { recursive: true, force: true });
		mkdirSync(dataDir, { recursive: true, mode: 0o700 });
		if (account.uid !== undefined) chownSync(dataDir, account.uid, account.gid);
		await run(
			join(bin, 'initdb'),
			['-D', dataDir, '-U', 'n8n', '--auth=trust', '--encoding=UTF8', '--no-locale'],
			// A group of its own: killed on exit with the postgres it runs (processes.mjs, killOnExit).
			{ capture: true, cwd: dataDir, detached: true, ...account },
		);
	}
	const port = await freePort();
	const service = new Service(
		'postgres',
		join(bin, 'postgres'),
		// TCP on loopback only; no Unix socket (its default folder is not writable for every user).
		[
			'-D',
			dataDir,
			'-p',
			String(port),
			'-c',
			'listen_addresses=127.0.0.1',
			'-c',
			'unix_socket_directories=',
		],
		// SIGINT: PostgreSQL's "fast" shutdown (SIGTERM would wait for every client to leave).
		{ env: process.env, cwd: dataDir, logFile, stopSignal: 'SIGINT', ...account },
	);
	try {
		await service.waitForOutput(/database system is ready to accept connections/, 60_000);
		if (fresh) {
			await run(
				join(bin, 'createdb'),
				['-h', '127.0.0.1', '-p', String(port), '-U', 'n8n', 'n8n'],
				{
					capture: true,
				},
			);
		}
	} catch (error) {
		await service.stop();
		throw error;
	}
	return { service, port, database: 'n8n', user: 'n8n', dataDir };
}

/**
 * Redis on a loopback port (a free one unless `port`), its data in `dir`. It keeps n8n's job queue in an append-only
 * file, as a production Redis must: a webhook process acknowledges a delivery once the job is queued, so a Redis
 * that forgets it on a restart loses the event for good (docs/design.md, "Queue mode needs a persistent Redis").
 * `appendfsync everysec`: Redis writes each change to the file before it answers it, so a restart or a kill -9 of
 * Redis keeps it; only the machine itself going down can lose the last second, which `always` (a disk flush per
 * write) would close at a cost a one-machine stack does not need. `restart({ crash })` stops it (kill -9 with
 * `crash`) and starts it again on the same port and files.
 */
export async function startRedis({ dir, logFile, port }) {
	const listening = port ?? (await freePort());
	const service = new Service(
		'redis',
		'redis-server',
		[
			'--port',
			String(listening),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'yes',
			'--appendfsync',
			'everysec',
			'--dir',
			dir,
		],
		{ env: process.env, cwd: dir, logFile },
	);
	try {
		await service.waitForOutput(/Ready to accept connections/, 30_000);
	} catch (error) {
		await service.stop();
		throw new Error(`${error.message}\n(is redis-server installed? apt-get install redis-server)`);
	}
	return {
		service,
		port: listening,
		async restart({ crash = false } = {}) {
			await (crash ? this.service.kill() : this.service.stop());
			this.service = (await startRedis({ dir, logFile, port: listening })).service;
		},
		stop() {
			return this.service.stop();
		},
	};
}

/**
 * The n8n processes of queue mode in `dir` (one user folder each, the package installed into each by `install`),
 * sharing PostgreSQL, Redis and one encryption key (kept in `dir/queue.json`).
 */
export class QueueN8n {
	constructor({ dir, mainPort, postgres, redis, install, log }) {
		Object.assign(this, { dir, mainPort, postgres, redis, install, log });
		this.client = new N8nClient(`http://127.0.0.1:${mainPort}`);
		this.main = undefined;
		this.worker = undefined;
		this.webhooks = [];
		/** Every n8n process started, for the check that none is left. */
		this.started = [];
		const stateFile = join(dir, 'queue.json');
		const state = readJson(stateFile, {});
		if (!state.encryptionKey) {
			state.encryptionKey = randomBytes(24).toString('base64');
			writeSecretJson(stateFile, state);
		}
		this.encryptionKey = state.encryptionKey;
	}

	get services() {
		return [...this.webhooks, this.worker, this.main].filter(Boolean);
	}

	/**
	 * Where production webhooks go: the balancer in front of the webhook processes, or what `start({ webhookUrl })`
	 * named (a proxy in front of the balancer, as a public name is).
	 */
	get webhookUrl() {
		return this.publicUrl ?? this.balancer.url;
	}

	/**
	 * What every process shares: the execution mode, the database, Redis, the key, the URLs (and, from
	 * n8nEnvironment, n8n without its publication service: main activates every active workflow on each start).
	 */
	environment({ userFolder, port, brokerPort, extra = {} }) {
		return n8nEnvironment({
			userFolder,
			port,
			brokerPort,
			webhookUrl: `${this.webhookUrl}/`,
			extra: {
				EXECUTIONS_MODE: 'queue',
				DB_TYPE: 'postgresdb',
				DB_POSTGRESDB_HOST: '127.0.0.1',
				DB_POSTGRESDB_PORT: String(this.postgres.port),
				DB_POSTGRESDB_DATABASE: this.postgres.database,
				DB_POSTGRESDB_USER: this.postgres.user,
				DB_POSTGRESDB_PASSWORD: '',
				// n8n's default pool of 2 connections per process times out ("timeout exceeded when trying to
				// connect", failed executions) under a burst of deliveries on a busy machine.
				DB_POSTGRESDB_POOL_SIZE: '10',
				QUEUE_BULL_REDIS_HOST: '127.0.0.1',
				QUEUE_BULL_REDIS_PORT: String(this.redis.port),
				N8N_ENCRYPTION_KEY: this.encryptionKey,
				N8N_EDITOR_BASE_URL: `${this.client.baseUrl}/`,
				// Stop within Service.stop's grace period.
				N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
				...extra,
			},
		});
	}

	async process(name, command, { port, extra, args }) {
		const userFolder = join(this.dir, name);
		await this.install(userFolder);
		const service = await startN8nProcess({
			name,
			command,
			args,
			userFolder,
			env: this.environment({ userFolder, port, brokerPort: await freePort(), extra }),
			port,
			logFile: join(this.dir, `${name}.log`),
		});
		this.started.push(service);
		return service;
	}

	async startMain() {
		if (await portInUse(this.mainPort))
			throw new Error(`port ${this.mainPort} is in use: is another n8n or \`npm start\` running?`);
		this.main = await this.process('main', 'start', { port: this.mainPort });
	}

	async startWorker() {
		const port = await freePort();
		this.worker = await this.process('worker', 'worker', {
			port,
			args: ['--concurrency=10'],
			extra: {
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(port),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			},
		});
	}

	/** Stops the worker: jobs wait in Redis until `startWorker()`. */
	async stopWorker() {
		await this.worker?.stop();
		this.worker = undefined;
	}

	/** One more webhook process (user folder `webhook-<index>`), in the balancer's rotation once it is ready. */
	async addWebhookProcess(index = this.webhooks.length + 1) {
		const port = await freePort();
		const service = await this.process(`webhook-${index}`, 'webhook', { port });
		service.port = port;
		this.webhooks.push(service);
		this.balancer.backends.push(port);
		return service;
	}

	/** Stops webhook process `index`, taken out of the balancer's rotation first. */
	async removeWebhookProcess(index) {
		const service = this.webhooks.find((candidate) => candidate.name === `webhook-${index}`);
		if (!service) return;
		const turn = this.balancer.backends.indexOf(service.port);
		if (turn >= 0) this.balancer.backends.splice(turn, 1);
		this.webhooks = this.webhooks.filter((candidate) => candidate !== service);
		await service.stop();
	}

	/**
	 * SIGKILL to webhook process `index` (1, 2, …), as `kill -9`. The balancer keeps sending it its share of
	 * requests, which fail (502), until `restartWebhookProcess(index)`.
	 */
	async killWebhookProcess(index = 1) {
		const service = this.webhooks.find((candidate) => candidate.name === `webhook-${index}`);
		if (!service) throw new Error(`no webhook process webhook-${index} is running`);
		await service.kill();
		this.webhooks = this.webhooks.filter((candidate) => candidate !== service);
		this.killed = { ...this.killed, [index]: service.port };
	}

	/** Starts webhook process `index` again (same user folder), in place of the one killed. */
	async restartWebhookProcess(index = 1) {
		const port = this.killed?.[index];
		const turn = this.balancer.backends.indexOf(port);
		if (turn >= 0) this.balancer.backends.splice(turn, 1);
		delete this.killed?.[index];
		return await this.addWebhookProcess(index);
	}

	/**
	 * Main first (it migrates the database and activates the workflows), then the worker and the webhook processes.
	 * `webhookUrl`: from now on, the base URL triggers register instead of the balancer's.
	 */
	async start({ webhookProcesses = 1, balancerPort = 0, webhookUrl = this.publicUrl } = {}) {
		this.publicUrl = webhookUrl?.replace(/\/+$/, '');
		this.balancer ??= await startBalancer({ port: balancerPort });
		const count = Math.max(1, webhookProcesses);
		this.log(
			`starting n8n in queue mode: main on ${this.client.baseUrl}, ${count} webhook process(es) behind ${this.balancer.url}, a worker`,
		);
		await this.startMain();
		// Every start settles before a failure is thrown, so that stop() finds each process that did start.
		const settled = await Promise.allSettled([
			this.startWorker(),
			...Array.from({ length: count }, (_, index) => this.addWebhookProcess(index + 1)),
		]);
		const failed = settled.find((outcome) => outcome.status === 'rejected');
		if (failed) throw failed.reason;
	}

	/** Stops the n8n processes (webhook processes first, main last); the balancer stays for a restart. */
	async stopProcesses() {
		// No balancer when start failed before it listened (its port taken).
		if (this.balancer) this.balancer.backends.length = 0;
		await Promise.all(this.webhooks.map((service) => service.stop()));
		await this.worker?.stop();
		await this.main?.stop();
		const count = this.webhooks.length;
		this.webhooks = [];
		this.worker = undefined;
		this.main = undefined;
		return count;
	}

	/**
	 * Stops every n8n process and starts them again with the same user folders, database and Redis; `options` as
	 * start's (`webhookUrl`).
	 */
	async restart(options = {}) {
		const webhookProcesses = await this.stopProcesses();
		await this.start({ ...options, webhookProcesses });
	}

	async stop() {
		await this.stopProcesses();
		// A process started but no longer named (a killed webhook process, one whose start failed) is stopped too.
		await Promise.all(this.started.filter((service) => service.running).map((s) => s.stop()));
		await this.balancer?.close();
	}
}
