// The processes of the local stack: each a child in a process group of its own, stopped as a group. Plain Node.
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A port free now, for a process the stack starts a little later. It is picked below the kernel's range for the
 * local ports of outgoing connections (Linux's ip_local_port_range, 32768–60999 by default): a port from that range
 * (what listening on port 0 gives) could be taken in between by any connection another process opens, and a CI run
 * lost e2e.test.mjs to "port … is in use" so, while the other lane streamed events.
 */
export async function freePort() {
	const low = ephemeralLow();
	if (low - FIRST_PICKED >= 1000) {
		for (let tries = 0; tries < 50; tries++) {
			const port = FIRST_PICKED + Math.floor(Math.random() * (low - FIRST_PICKED));
			// Never the same port twice in one process: a port picked is not bound until its process starts.
			if (handedOut.has(port) || (await portInUse(port))) continue;
			handedOut.add(port);
			return port;
		}
	}
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

/** The ports freePort gave in this process. */
const handedOut = new Set();

/** The lowest port freePort picks from, up to the ephemeral range. */
const FIRST_PICKED = 20000;

/** The first port of the kernel's ephemeral range (32768 where it cannot be read). */
function ephemeralLow() {
	try {
		const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
			.trim()
			.split(/\s+/);
		return Number(low) || 32768;
	} catch {
		return 32768;
	}
}

export async function portInUse(port) {
	return await new Promise((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(true));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
	});
}

/** The services this process started and has not stopped or killed yet. */
const unstopped = new Set();
/** The one-shot commands (initdb, npm install…) still running. */
const unfinished = new Set();
// The services run detached, in process groups of their own, and would outlive this process, as would a command it
// awaits: whatever ends it (an error, process.exit after a signal, a boot cut short) ends them too. SIGKILL: an
// 'exit' handler cannot wait.
process.on('exit', () => {
	for (const service of unstopped) service.signalGroup('SIGKILL');
	for (const child of unfinished) {
		signalGroup(child, 'SIGKILL');
		child.kill('SIGKILL');
	}
});

function signalGroup(child, signal) {
	try {
		process.kill(-child.pid, signal);
	} catch {
		// The group is gone already.
	}
}

/**
 * Has a one-shot command killed if this process exits before it ends; spawned `detached`, its whole process group
 * (initdb's own postgres goes with it).
 */
export function killOnExit(child) {
	unfinished.add(child);
	child.once('exit', () => unfinished.delete(child));
}

/**
 * On SIGTERM or SIGINT (CI ending a run, Ctrl-C), `stop()` is given `graceMs` to stop things its own way, then the
 * process exits with 1, and the exit kills every service left (a stack still booting among them).
 */
export function stopOnSignals(stop, { log, graceMs = 30_000 }) {
	let stopping = false;
	const onSignal = (signal) => {
		if (stopping) return;
		stopping = true;
		log(`${signal}: stopping every stack started`);
		void Promise.race([
			Promise.resolve()
				.then(stop)
				.catch(() => undefined),
			sleep(graceMs),
		]).finally(() => process.exit(1));
	};
	process.on('SIGTERM', onSignal);
	process.on('SIGINT', onSignal);
}

/**
 * A child in a process group of its own, so that stopping it ends everything it started. `uid`/`gid` run it as
 * another user (PostgreSQL refuses root); `stopSignal` is what asks it to stop (SIGTERM unless said otherwise).
 */
export class Service {
	constructor(name, command, args, { env, cwd, logFile, uid, gid, stopSignal = 'SIGTERM' }) {
		this.name = name;
		this.stopSignal = stopSignal;
		this.output = '';
		this.log = createWriteStream(logFile, { flags: 'a' });
		this.child = spawn(command, args, {
			cwd,
			env,
			uid,
			gid,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		unstopped.add(this);
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
		signalGroup(this.child, signal);
	}

	/** Whether any process of the group is left (the group's leader may have exited before its helpers). */
	get groupAlive() {
		try {
			process.kill(-this.child.pid, 0);
			return true;
		} catch {
			return false;
		}
	}

	/** SIGKILL to the whole group at once, as `kill -9` (a crash: nothing is shut down); resolves once it exited. */
	async kill() {
		if (this.child.pid === undefined) return;
		this.signalGroup('SIGKILL');
		await this.exited;
		unstopped.delete(this);
		await new Promise((resolve) => this.log.end(resolve));
	}

	/** `stopSignal` to the whole group, SIGKILL after `graceMs`; resolves once the process has exited. */
	async stop(graceMs = 15_000) {
		if (this.child.pid === undefined) return;
		if (this.running) {
			this.signalGroup(this.stopSignal);
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
		unstopped.delete(this);
		await new Promise((resolve) => this.log.end(resolve));
	}
}

/** Polls `url` until it answers 2xx; fails when `service` exits or time runs out. */
export async function waitForHttp(service, url, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (!service.running)
			throw new Error(`${service.name} exited early:\n${service.output.slice(-4000)}`);
		try {
			const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
			if (response.ok) return;
		} catch {
			// Not listening yet.
		}
		if (Date.now() > deadline) {
			throw new Error(
				`${service.name} did not answer ${url} within ${timeoutMs} ms:\n${service.output.slice(-4000)}`,
			);
		}
		await sleep(250);
	}
}
