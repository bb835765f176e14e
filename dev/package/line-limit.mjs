#!/usr/bin/env node
// `npm run check:lines`: fails when a hand-written file of the repository (code, tests, scripts, example workflows)
// is over 400 lines, printing each such file with its count. A file that long does more than one job: split it
// by job. Generated files (the nodes' output schemas, docs/openapi.json, *.generated.ts, package-lock.json),
// markdown and binary files are not counted. Plain Node (never shipped).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO, repoFiles } from './repo-files.mjs';

const LIMIT = 400;
const NOT_COUNTED = [
	/(^|\/)__schema__\//,
	/^docs\/openapi\.json$/,
	/\.generated\.ts$/,
	/(^|\/)package-lock\.json$/,
	/\.md$/,
];

function linesOf(text) {
	if (text === '') return 0;
	return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

const counted = [];
for (const path of repoFiles()) {
	if (NOT_COUNTED.some((pattern) => pattern.test(path)) || !existsSync(join(REPO, path))) continue;
	const data = readFileSync(join(REPO, path));
	if (data.includes(0)) continue; // binary: an image
	counted.push({ path, lines: linesOf(data.toString('utf8')) });
}

const over = counted.filter(({ lines }) => lines > LIMIT).sort((a, b) => b.lines - a.lines);
if (over.length === 0) {
	console.log(`line limit: no file over ${LIMIT} lines among ${counted.length} hand-written files`);
} else {
	console.error(
		`line limit: ${over.length} hand-written file(s) over ${LIMIT} lines; split each by job:`,
	);
	for (const { path, lines } of over) console.error(`  ${lines}  ${path}`);
	process.exitCode = 1;
}
