/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- tests run in plain Node, never inside n8n, and start the bundled sandbox as a child process */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ts from 'typescript';

import { bundleConsoleScript, CONSOLE_ENTRY } from '../../sandbox/console/script';
import { raw } from '../support/sandbox';

/**
 * The console's browser script is a typed source (sandbox/console/browser/) bundled into the page: it
 * type-checks against the DOM with its own tsconfig, bundles into one inline script, and the tsup build of
 * the sandbox carries the same script without esbuild at run time.
 */

const ROOT = join(__dirname, '..', '..');

function inlineScript(html: string): string | undefined {
	return /<script nonce="[^"]+">([\s\S]*)<\/script>/.exec(html)?.[1];
}

it('type-checks the browser sources with the DOM and without Node types', () => {
	const configFile = join(ROOT, 'sandbox', 'console', 'browser', 'tsconfig.json');
	const config = ts.getParsedCommandLineOfConfigFile(configFile, undefined, {
		...ts.sys,
		onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
			throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
		},
	});
	expect(config?.fileNames).toContain(CONSOLE_ENTRY);
	const program = ts.createProgram(config!.fileNames, config!.options);
	const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
		const where = diagnostic.file
			? `${diagnostic.file.fileName}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}: `
			: '';
		return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
	});
	expect(problems).toEqual([]);
});

it('bundles into one script that can be inlined', () => {
	const script = bundleConsoleScript();
	expect(script).toContain('multichannelConsole');
	expect(script).not.toMatch(/<\/script/i);
	expect(script).not.toMatch(/\brequire\(/);
});

describe('the tsup build of the sandbox', () => {
	const directory = mkdtempSync(join(tmpdir(), 'sandbox-bundle-'));
	let child: ReturnType<typeof spawn> | undefined;
	afterAll(() => {
		child?.kill();
		rmSync(directory, { recursive: true, force: true });
	});

	it('serves the same console script, built at build time', async () => {
		const build = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsup'), ['--out-dir', directory], {
			cwd: ROOT,
			encoding: 'utf8',
		});
		expect(build.status).toBe(0);

		const started = spawn(
			process.execPath,
			[join(directory, 'main.js'), '--memory', '--port', '0'],
			{
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		child = started;
		const baseUrl = await new Promise<string>((resolve, reject) => {
			let output = '';
			started.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
				output += chunk;
				const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
				if (url) resolve(url);
			});
			started.once('exit', (code) => reject(new Error(`the sandbox exited (${code}): ${output}`)));
		});
		const page = await raw(baseUrl, 'GET', '/user/api');
		expect(page.status).toBe(200);
		expect(inlineScript(String(page.body))).toBe(bundleConsoleScript());
	}, 60_000);
});
