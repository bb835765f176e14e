/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code runs in plain Node, never inside n8n */
/**
 * The package as n8n loads it: n8n-core's `PackageDirectoryLoader` reads the `n8n` section of package.json. By
 * default from its TypeScript sources: every `dist/….js` path registered in package.json is mapped to the `.ts`
 * file the build compiles it from (and `dist/….json` to its source JSON), which ts-jest (or ts-node) compiles on
 * require. No build is needed, and a registered path without a source fails loudly. `{ from: 'dist' }` loads the
 * built package instead (run `npm run build` first).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import { PackageDirectoryLoader } from 'n8n-core';
import type { ICredentialType, INodeType, IVersionedNodeType } from 'n8n-workflow';

import { PACKAGE_DIR } from '../package-dir';

export { PACKAGE_DIR };

// n8n logs every node error it reports; the tests assert errors themselves. `N8N_LOG_LEVEL=debug` shows them.
process.env.N8N_LOG_LEVEL ??= 'silent';

export type PackageSource = 'sources' | 'dist';

/**
 * n8n's own loader, with one change: registered `dist/` paths resolve to their sources. `resolvePath` is the
 * loader's single point for turning package paths into files (classes, codex files), so nothing else differs
 * from what n8n does with the built package.
 */
class SourcePackageLoader extends PackageDirectoryLoader {
	protected resolvePath(file: string): string {
		const match = /^dist\/(.+?)(\.js|\.json)$/.exec(file);
		if (!match) return super.resolvePath(file);
		const [, stem, extension] = match;
		const source = super.resolvePath(`${stem}${extension === '.js' ? '.ts' : extension}`);
		if (!existsSync(source)) {
			throw new Error(
				`package.json registers "${file}", but its source "${path.relative(this.directory, source)}" does not exist: the build would not emit it`,
			);
		}
		return source;
	}
}

export interface LoadedPackage {
	packageName: string;
	/** Node types by full type name, e.g. `n8n-nodes-multichannel.multichannel`. */
	nodeTypes: Record<string, INodeType | IVersionedNodeType>;
	credentialTypes: Record<string, ICredentialType>;
}

const loaded = new Map<string, Promise<LoadedPackage>>();

/** Loads the package once per test file (per module registry) and source. */
export async function loadPackage(options: { from?: PackageSource } = {}): Promise<LoadedPackage> {
	const from = options.from ?? 'sources';
	let pending = loaded.get(from);
	if (!pending) {
		pending = (async () => {
			const loader =
				from === 'sources'
					? new SourcePackageLoader(PACKAGE_DIR)
					: new PackageDirectoryLoader(PACKAGE_DIR);
			await loader.loadAll();
			const nodeTypes: LoadedPackage['nodeTypes'] = {};
			for (const [name, { type }] of Object.entries(loader.nodeTypes)) {
				nodeTypes[`${loader.packageName}.${name}`] = type;
			}
			const credentialTypes: LoadedPackage['credentialTypes'] = {};
			for (const [name, { type }] of Object.entries(loader.credentialTypes)) {
				credentialTypes[name] = type;
			}
			return { packageName: loader.packageName, nodeTypes, credentialTypes };
		})();
		loaded.set(from, pending);
	}
	return await pending;
}
