#!/usr/bin/env node
// `npm run scan`: n8n's own scanner (@n8n/scan-community-package), the check n8n runs before it verifies a
// community package, over the packed tarball (what npm would publish: dist/ and package.json) and over the
// sources it reads from the provenance-attested commit. Run after `npm run build`. Plain Node (never shipped).
//
// The scanner is installed once per machine beside n8n's runtime (not a devDependency: it brings its own
// TypeScript 7 and eslint, which would weigh on every `npm ci`), with install scripts ignored.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { REPO, RUNTIME_DIR, run } from '../n8n/runtime.mjs';

const SCANNER_VERSION = '0.32.0';
const SCANNER_HOME = join(RUNTIME_DIR, `scan-community-package-${SCANNER_VERSION}`);
const SCANNER_MAIN = join(
	SCANNER_HOME,
	'node_modules',
	'@n8n',
	'scan-community-package',
	'scanner',
	'scanner.mjs',
);
/** Shipped sources beyond the scanner's own patterns: the client the nodes import. */
const EXTRA_SOURCES = ['src/**/*.ts'];

const log = (message) => process.stderr.write(`[scan] ${message}\n`);

async function ensureScanner() {
	if (existsSync(SCANNER_MAIN)) return;
	log(`installing @n8n/scan-community-package ${SCANNER_VERSION} into ${SCANNER_HOME}`);
	mkdirSync(SCANNER_HOME, { recursive: true });
	writeFileSync(join(SCANNER_HOME, 'package.json'), '{ "private": true }\n');
	await run(
		'npm',
		[
			'install',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			'--loglevel=error',
			`@n8n/scan-community-package@${SCANNER_VERSION}`,
		],
		{ cwd: SCANNER_HOME, capture: true },
	);
}

async function packedPackage(dir) {
	const out = await run('npm', ['pack', '--json', '--pack-destination', dir], {
		cwd: REPO,
		capture: true,
		env: { ...process.env, npm_config_ignore_scripts: 'true' },
	});
	const [{ filename }] = JSON.parse(out);
	const target = join(dir, 'package');
	mkdirSync(target);
	await run('tar', ['-xzf', join(dir, filename), '-C', target, '--strip-components=1']);
	return target;
}

await ensureScanner();
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(pathToFileURL(SCANNER_MAIN).href);
const work = mkdtempSync(join(tmpdir(), 'multichannel-scan-'));
let failed = false;
try {
	const tarball = await packedPackage(work);
	const legs = [
		{ name: 'packed tarball', dir: tarball, patterns: undefined },
		{ name: 'sources', dir: REPO, patterns: [...SOURCE_FILE_PATTERNS, ...EXTRA_SOURCES] },
	];
	for (const leg of legs) {
		const result = await analyzePackage(leg.dir, leg.patterns);
		if (result.passed) {
			log(`${leg.name}: passed`);
		} else {
			failed = true;
			log(`${leg.name}: FAILED: ${result.message}`);
			if (result.details) process.stderr.write(`${result.details}\n`);
		}
	}
	if (readdirSync(join(tarball, 'dist')).length === 0) {
		failed = true;
		log('the tarball has an empty dist/: run `npm run build` first');
	}
} finally {
	rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
