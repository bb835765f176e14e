/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console -- a build script, never inside n8n */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { outputSchemaFiles, ROOT } from './build';

/** `npm run openapi` (after the OpenAPI document): writes every node's `__schema__` files, removes stale ones. */

/** The `__schema__` files there are now, from the repository root. */
export function existingSchemaFiles(): string[] {
	return readdirSync(path.join(ROOT, 'nodes'), { recursive: true, encoding: 'utf8' })
		.filter((file) => file.split(path.sep).includes('__schema__') && file.endsWith('.json'))
		.map((file) => path.join('nodes', file));
}

if (require.main === module) {
	const files = outputSchemaFiles();
	for (const stale of existingSchemaFiles().filter((file) => !files.has(file))) {
		rmSync(path.join(ROOT, stale));
		console.log(`Removed ${stale}`);
	}
	for (const [file, text] of files) {
		mkdirSync(path.dirname(path.join(ROOT, file)), { recursive: true });
		writeFileSync(path.join(ROOT, file), text);
	}
	console.log(`Wrote ${files.size} output schemas (nodes/*/__schema__/)`);
}
