import { defineConfig } from 'tsup';

/**
 * Builds the sandbox's runnable form (`npm run build:sandbox` → `node node_modules/.cache/sandbox/main.js`). Everything it
 * imports, undici and zod included, is bundled in, so the output runs without node_modules. The package
 * itself is built by `n8n-node build`; this is only for the sandbox.
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
});
