/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions, @typescript-eslint/no-require-imports -- test code runs in plain Node, never inside n8n; it loads modules as n8n would, and Node's own resolver in a child process */
/**
 * The minimum n8n (issue 18): on an n8n whose zod predates 3.25 (n8n before 1.100), loading any node of the
 * package fails with a message naming the n8n it needs, not Node's module-resolution error. The failure is
 * Node's own: a zod 3.24 package (its real `exports` map, which has no `./v4`) in a temporary folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { MINIMUM_N8N_VERSION, OLD_N8N_MESSAGE } from '../../src/client/zod';

const ROOT = path.join(__dirname, '..', '..');
const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	n8n: { nodes: string[] };
};
/** Each node file n8n loads, as its TypeScript source. */
const nodeSources = packageJson.n8n.nodes.map((file) =>
	path.join(ROOT, file.replace(/^dist\//, '').replace(/\.js$/, '.ts')),
);

/** The error Node raises for `require('zod/v4')` where zod is 3.24.1 (the zod of n8n 1.95–1.99). */
function zod324Error(): Error {
	const folder = mkdtempSync(path.join(tmpdir(), 'old-zod-'));
	try {
		const zodFolder = path.join(folder, 'node_modules', 'zod');
		mkdirSync(path.join(zodFolder, 'lib'), { recursive: true });
		writeFileSync(
			path.join(zodFolder, 'package.json'),
			JSON.stringify({
				name: 'zod',
				version: '3.24.1',
				main: './lib/index.js',
				exports: {
					'.': { require: './lib/index.js', import: './lib/index.mjs' },
					'./package.json': './package.json',
					'./locales/*': './lib/locales/*',
				},
			}),
		);
		writeFileSync(path.join(zodFolder, 'lib', 'index.js'), 'exports.z = {};\n');
		// Node's own resolver, outside jest's: a child process in that folder.
		const answer = execFileSync(
			process.execPath,
			[
				'-e',
				"try { require('zod/v4'); console.log('{}') } catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })) }",
			],
			{ cwd: folder, encoding: 'utf8' },
		);
		const { code, message } = JSON.parse(answer) as { code?: string; message?: string };
		return Object.assign(new Error(message ?? 'zod 3.24 unexpectedly served zod/v4'), { code });
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

describe('an n8n older than the minimum', () => {
	const oldZod = zod324Error();
	// A mock outlives jest.isolateModules: the next test's n8n-workflow must load the real zod/v4.
	afterEach(() => jest.dontMock('zod/v4'));

	it('is simulated with the error Node really gives', () => {
		expect((oldZod as Error & { code?: string }).code).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
	});

	it.each(nodeSources.map((file) => [path.relative(ROOT, file), file]))(
		'%s fails to load with a message naming the minimum n8n version',
		(_name, file) => {
			jest.isolateModules(() => {
				// n8n's own n8n-workflow is loaded already, and an old one needs no zod/v4.
				require('n8n-workflow');
				jest.doMock('zod/v4', () => {
					throw oldZod;
				});
				expect(() => require(file)).toThrow(OLD_N8N_MESSAGE);
			});
		},
	);

	it('is told which version to install', () => {
		expect(OLD_N8N_MESSAGE).toContain(`needs n8n ${MINIMUM_N8N_VERSION} or newer`);
		expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain(
			`n8n ${MINIMUM_N8N_VERSION.replace(/\.0$/, '')} or newer`,
		);
	});

	it('any other failure to load zod is passed on as it is', () => {
		const broken = new Error('zod is broken');
		jest.isolateModules(() => {
			require('n8n-workflow');
			jest.doMock('zod/v4', () => {
				throw broken;
			});
			expect(() => require('../../src/client/zod')).toThrow(broken);
		});
	});
});

describe('shipped code', () => {
	/** Every .ts file n8n may load: credentials, nodes and the client. */
	function shippedFiles(folder: string): string[] {
		return readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
			.filter((file) => file.endsWith('.ts'))
			.map((file) => path.join(folder, file));
	}

	it('loads zod only through src/client/zod.ts, so the check always runs first', () => {
		const direct = ['credentials', 'nodes', 'src/client']
			.flatMap(shippedFiles)
			.filter((file) => file !== path.join('src', 'client', 'zod.ts'))
			.filter((file) => {
				const source = readFileSync(path.join(ROOT, file), 'utf8');
				// A type-only import is erased by the compiler and loads nothing.
				return /^import (?!type )[^;]*from 'zod(\/[^']*)?';|require\('zod/m.test(source);
			});
		expect(direct).toEqual([]);
	});
});
