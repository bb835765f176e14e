/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the sandbox runs in plain Node, never inside n8n */
import { join } from 'node:path';
import { buildSync } from 'esbuild';

/**
 * The console's browser script: typed sources in `browser/` (entry `browser/main.ts`), bundled by esbuild into
 * one script inlined into the page. Run from the sources (ts-node, jest), the bundle is built at the first
 * page request; the tsup build (tsup.config.ts) builds it once and puts the text in place of this module,
 * so the bundled sandbox needs neither esbuild nor the sources.
 */

export const CONSOLE_ENTRY = join(__dirname, 'browser', 'main.ts');

export function bundleConsoleScript(entry = CONSOLE_ENTRY): string {
	const result = buildSync({
		entryPoints: [entry],
		bundle: true,
		write: false,
		format: 'iife',
		platform: 'browser',
		target: 'es2020',
		legalComments: 'none',
		logLevel: 'silent',
	});
	return result.outputFiles[0].text;
}

let bundled: string | undefined;

export function consoleScript(): string {
	bundled ??= bundleConsoleScript();
	return bundled;
}
