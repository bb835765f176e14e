// Packing this package as npm would publish it and installing it into an n8n user folder as n8n installs a
// community package. Plain Node (never shipped).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { N8N_HOME, NODE24, REPO, readJson, run } from './runtime.mjs';

export const PACKAGE_NAME = 'n8n-nodes-multichannel';

/** Where n8n finds the package installed into a user folder. */
export function installedPackageDir(userFolder) {
	return join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
}

/**
 * Where `specifier` resolves from the installed package the way n8n 2.40 resolves it: Node's walk up from the
 * package first (`normalWalk`, null when it finds nothing), then NODE_PATH, which n8n sets to the module paths of
 * its own loader (load-nodes-and-credentials.js: `module.paths` + `Module._initPaths()`).
 */
export async function resolveAsN8nDoes(packageDir, specifier) {
	const loaderDir = join(N8N_HOME, 'node_modules', 'n8n', 'dist');
	const script = `
		const Module = require('node:module');
		const from = Module.createRequire(${JSON.stringify(join(packageDir, 'package.json'))});
		const attempt = () => { try { return from.resolve(${JSON.stringify(specifier)}); } catch { return null; } };
		const normalWalk = attempt();
		process.env.NODE_PATH = Module._nodeModulePaths(${JSON.stringify(loaderDir)}).join(':');
		Module._initPaths();
		console.log(JSON.stringify({ normalWalk, withN8nPaths: attempt() }));`;
	return JSON.parse(await run(NODE24, ['-e', script], { capture: true, env: {} }));
}

/** The node types a built package declares (`n8n-nodes-multichannel.<name>`), read from its dist files. */
export function packagedNodeTypes(packageDir = REPO) {
	const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
	const types = new Set();
	for (const file of pkg.n8n?.nodes ?? []) {
		const path = join(packageDir, file);
		if (!existsSync(path)) continue;
		const source = readFileSync(path, 'utf8');
		const match = /name:\s*'([A-Za-z0-9]+)'/.exec(source.slice(source.indexOf('description')));
		if (match) types.add(`${PACKAGE_NAME}.${match[1]}`);
	}
	return types;
}

/**
 * Builds the package and the sandbox bundle, and packs the package as npm would publish it.
 * Returns the tarball's path. E2E_TARBALL (set by e2e/run.mjs, which packs once per run) names a tarball packed
 * before: that one is used, unbuilt and unpacked again (a pack costs 12–22 s, and every stack would repeat it).
 */
export async function buildAndPack({ outDir, log, build = true }) {
	if (process.env.E2E_TARBALL) return process.env.E2E_TARBALL;
	if (build) {
		log('building the package (npm run build) and the sandbox (tsup)');
		await run('npm', ['run', 'build', '--silent'], { cwd: REPO, capture: true });
		await run('npx', ['tsup', '--silent'], { cwd: REPO, capture: true });
	}
	mkdirSync(outDir, { recursive: true });
	for (const file of readdirSync(outDir)) if (file.endsWith('.tgz')) rmSync(join(outDir, file));
	const out = await run('npm', ['pack', '--json', '--pack-destination', outDir], {
		cwd: REPO,
		capture: true,
		env: { ...process.env, npm_config_ignore_scripts: 'true' },
	});
	const [{ filename }] = JSON.parse(out);
	return join(outDir, filename);
}

/**
 * Installs the tarball into `<user folder>/.n8n/nodes` as n8n 2.40's community-package installer does
 * (modules/community-packages: `npm pack` → extract into node_modules/<name> → strip dev/peer/optional
 * dependencies → `npm install` there → record it in nodes/package.json); n8n then loads it on start from
 * `nodes/node_modules` and names its node types `n8n-nodes-multichannel.<node>`. Skips the work when the
 * same tarball is installed already.
 */
export async function installCommunityPackage({ tarball, userFolder, log }) {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const target = installedPackageDir(userFolder);
	const digest = createHash('sha256').update(readFileSync(tarball)).digest('hex');
	const marker = join(target, '.installed-from-tarball');
	if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === digest) {
		log('package unchanged since the last install into n8n');
		return { installed: false, dir: target };
	}
	log(`installing ${PACKAGE_NAME} into ${nodesDir} as a community package`);
	rmSync(target, { recursive: true, force: true });
	mkdirSync(target, { recursive: true });
	await run('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
	const pkgPath = join(target, 'package.json');
	const { devDependencies, peerDependencies, optionalDependencies, ...pkg } = JSON.parse(
		readFileSync(pkgPath, 'utf8'),
	);
	writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
	await run(
		'npm',
		[
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
			'--loglevel=error',
		],
		{ cwd: target, capture: true },
	);
	const rootPath = join(nodesDir, 'package.json');
	const root = readJson(rootPath, { name: 'installed-nodes', private: true, dependencies: {} });
	root.dependencies = { ...root.dependencies, [PACKAGE_NAME]: pkg.version };
	writeFileSync(rootPath, `${JSON.stringify(root, null, 2)}\n`);
	writeFileSync(marker, `${digest}\n`);
	return { installed: true, dir: target };
}
