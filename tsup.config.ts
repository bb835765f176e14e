/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a build configuration, never inside n8n */
import { resolve } from 'node:path';
import { defineConfig } from 'tsup';

import { bundleConsoleScript } from './sandbox/console/script';

/**
 * Builds the sandbox's runnable form (`npm run build:sandbox` → `node node_modules/.cache/sandbox/main.js`). Everything it
 * imports, undici and zod included, is bundled in, so the output runs without node_modules. The package
 * itself is built by `n8n-node build`; this is only for the sandbox.
 *
 * The console's browser script is bundled here once, and its text replaces sandbox/console/script.ts (which
 * would otherwise bundle it with esbuild at run time), so the output needs neither esbuild nor the sources.
 */
export default defineConfig({
	entry: { main: 'sandbox/main.ts' },
	// Under node_modules: n8n's lint (eslint .) skips it, and the bundled libraries' comments are not ours to lint.
	outDir: 'node_modules/.cache/sandbox',
	format: ['cjs'],
	platform: 'node',
	target: 'node20',
	noExternal: [/.*/],
	clean: true,
	sourcemap: true,
	splitting: false,
	esbuildPlugins: [
		{
			name: 'console-script',
			setup(build) {
				build.onLoad({ filter: /[\\/]sandbox[\\/]console[\\/]script\.ts$/ }, () => {
					const script = bundleConsoleScript(resolve('sandbox/console/browser/main.ts'));
					return {
						contents: `export const consoleScript = () => ${JSON.stringify(script)};`,
						loader: 'ts',
					};
				});
			},
		},
	],
});
