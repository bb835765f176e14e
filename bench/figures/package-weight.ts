/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- the benchmark runs in plain Node, never inside n8n: it runs `npm pack` and cold `node` processes, reads dist/ */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

import { kilobytes, median, millis, PACKAGE_DIR, ratio } from '../lib';
import type { Report } from '../report';

function walk(directory: string): string[] {
	return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(directory, entry.name);
		return entry.isDirectory() ? walk(full) : [full];
	});
}

function newestMtime(directories: string[]): number {
	return Math.max(
		...directories
			.map((directory) => path.join(PACKAGE_DIR, directory))
			.filter((directory) => existsSync(directory))
			.flatMap(walk)
			.map((file) => statSync(file).mtimeMs),
	);
}

const LOAD_SCRIPT = `
const started = process.hrtime.bigint();
const ms = (from) => Number(process.hrtime.bigint() - from) / 1e6;
require('n8n-workflow');
require('zod/v4');
const peers = ms(started);
const pkg = require('./package.json');
const ours = process.hrtime.bigint();
let classes = 0;
for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
	for (const exported of Object.values(require('./' + file))) {
		if (typeof exported === 'function') { new exported(); classes++; }
	}
}
process.stdout.write(JSON.stringify({ peers, ours: ms(ours), classes }));
`;

/** The package as n8n gets it: `dist/`, the packed tarball, and the time to load every class from `dist/`. */
export function packageWeight({ row, note }: Report): void {
	const dist = path.join(PACKAGE_DIR, 'dist');
	if (!existsSync(dist)) {
		row('package weight', 'no dist/: run `npm run build` first');
		return;
	}
	const files = walk(dist);
	const size = (list: string[]) => list.reduce((sum, file) => sum + statSync(file).size, 0);
	const jsFiles = files.filter((file) => file.endsWith('.js'));
	if (newestMtime(['nodes', 'credentials', 'src/client']) > newestMtime(['dist'])) {
		note('dist/ is older than the sources: run `npm run build` for current package figures.');
	}
	row(
		'`dist` size',
		`${kilobytes(size(files))} in ${files.length} files`,
		`of which JavaScript: ${kilobytes(size(jsFiles))} in ${jsFiles.length} files`,
		ratio(size(files) / size(jsFiles)),
	);

	const pack = spawnSync('npm', ['pack', '--dry-run', '--json'], {
		cwd: PACKAGE_DIR,
		encoding: 'utf8',
	});
	const packed = (
		JSON.parse(pack.stdout) as Array<{ size: number; unpackedSize: number; entryCount: number }>
	)[0];
	row(
		'packed tarball (`npm pack --dry-run`)',
		`${kilobytes(packed.size)}, ${packed.entryCount} entries`,
		`unpacked: ${kilobytes(packed.unpackedSize)}`,
		ratio(packed.unpackedSize / packed.size),
	);

	const loads = Array.from({ length: 7 }, () => {
		const run = spawnSync(process.execPath, ['-e', LOAD_SCRIPT], {
			cwd: PACKAGE_DIR,
			encoding: 'utf8',
		});
		if (run.status !== 0) throw new Error(`Loading dist/ failed: ${run.stderr}`);
		return JSON.parse(run.stdout) as { peers: number; ours: number; classes: number };
	});
	const ours = median(loads.map((load) => load.ours));
	const peers = median(loads.map((load) => load.peers));
	row(
		`load every node and credential class from dist/ (${loads[0].classes} classes, require + new; median of ${loads.length} cold processes)`,
		millis(ours),
		`n8n-workflow + zod, which n8n has loaded already: ${millis(peers)}`,
		ratio(ours / peers),
	);
}
