#!/usr/bin/env node
// `npm run check:circles`: fails when source files import each other in a loop, printing each circle with the
// imports that close it. A circle ties files that cannot be understood (or loaded) one before the other; shared
// types go where nothing imports back. Every relative import counts, `import type` included, as in
// `farm-studio look`; test files too. Plain Node (never shipped).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

import { REPO, repoFiles } from './repo-files.mjs';

const SOURCE = /\.(ts|mts|mjs|js|cjs)$/;
/** `from '…'`, `import '…'`, `import('…')`, `require('…')` naming a relative path. */
const IMPORT = /(?:\bfrom|^\s*import|\bimport\s*\(|\brequire\s*\()\s*['"](\.\.?\/[^'"]+)['"]/gm;

const files = repoFiles().filter((path) => SOURCE.test(path) && existsSync(join(REPO, path)));
const known = new Set(files);

/** The file an import names, as TypeScript and Node resolve it here; undefined outside the repository's sources. */
function resolve(from, specifier) {
	const base = normalize(join(dirname(from), specifier));
	const candidates = [
		base,
		base.replace(/\.js$/, '.ts'),
		`${base}.ts`,
		`${base}.mjs`,
		`${base}.js`,
		join(base, 'index.ts'),
		join(base, 'index.mjs'),
		join(base, 'index.js'),
	];
	return candidates.find((candidate) => known.has(candidate));
}

const imports = new Map();
for (const file of files) {
	const text = readFileSync(join(REPO, file), 'utf8');
	const targets = new Set();
	for (const [, specifier] of text.matchAll(IMPORT)) {
		const target = resolve(file, specifier);
		if (target) targets.add(target);
	}
	imports.set(file, [...targets]);
}

/** Tarjan's strongly connected components: each of more than one file (or a file importing itself) is a circle. */
function circles() {
	const index = new Map();
	const low = new Map();
	const stack = [];
	const onStack = new Set();
	const found = [];
	let next = 0;
	function visit(file) {
		index.set(file, next);
		low.set(file, next);
		next += 1;
		stack.push(file);
		onStack.add(file);
		for (const target of imports.get(file)) {
			if (!index.has(target)) {
				visit(target);
				low.set(file, Math.min(low.get(file), low.get(target)));
			} else if (onStack.has(target)) {
				low.set(file, Math.min(low.get(file), index.get(target)));
			}
		}
		if (low.get(file) !== index.get(file)) return;
		const component = [];
		let member;
		do {
			member = stack.pop();
			onStack.delete(member);
			component.push(member);
		} while (member !== file);
		if (component.length > 1 || imports.get(file).includes(file)) found.push(component.sort());
	}
	for (const file of files) if (!index.has(file)) visit(file);
	return found;
}

const found = circles();
if (found.length === 0) {
	console.log(`import circles: none among ${files.length} source files`);
} else {
	console.error(`import circles: ${found.length} (files that import each other in a loop):`);
	for (const component of found) {
		const members = new Set(component);
		console.error(`- ${component.join(', ')}`);
		for (const file of component) {
			for (const target of imports.get(file).filter((target) => members.has(target))) {
				console.error(`    ${file} -> ${target}`);
			}
		}
	}
	process.exitCode = 1;
}
