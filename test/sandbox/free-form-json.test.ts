/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- tests run in plain Node, never inside n8n, and start the sandbox as `npm run sandbox` does */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Sandbox } from '../../sandbox/server';
import { directUrl, raw, startTestSandbox, type SandboxKeys } from '../support/sandbox';

/**
 * Free-form JSON (an automation event's payload) is bounded at the edge, and a change that cannot be saved
 * is undone: one deep payload once made every later save, list and SIGTERM fail, and writes answered 500 were
 * kept in memory only. Both with and without a data file; with one, a restart finds everything acknowledged.
 */

const directory = mkdtempSync(join(tmpdir(), 'sandbox-free-form-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** `{"a":{"a":…1…}}`, `depth` objects deep, as JSON text (built without recursion). */
function nestedText(depth: number): string {
	return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A record no save can serialise, as if a deep payload had got past the edge. */
function insertUnsavable(sandbox: Sandbox, id: string): void {
	sandbox.store.insert('automationEvents', {
		id,
		workspaceId: sandbox.workspaceId,
		name: 'unsavable',
		type: 'automation.unsavable',
		payload: JSON.parse(nestedText(10_000)) as Record<string, unknown>,
		occurredAt: new Date().toISOString(),
		createdAt: new Date().toISOString(),
	});
}

/**
 * Requests go straight to the sandbox, even under `npm run test:contract`: Prism, the validating proxy, fails
 * (500, and then no answer at all) on a body nested 10,000 deep; the document's bound is checked in the fuzz.
 */
function publishText(key: string, baseUrl: string, name: string, payloadText: string) {
	return raw(baseUrl, 'POST', '/api/v1/automation/events', {
		key,
		body: `{"name":"${name}","payload":${payloadText}}`,
	});
}

async function eventNames(sandbox: Sandbox, key: string): Promise<string[]> {
	const list = await raw(directUrl(sandbox), 'GET', '/api/v1/automation/events?limit=100', { key });
	expect(list.status).toBe(200);
	return (list.body as { data: Array<{ name: string }> }).data.map((event) => event.name);
}

describe.each([
	['in memory', false],
	['with a data file', true],
])('free-form JSON %s', (_mode, persistent) => {
	let file = 0;
	const dataFile = () => (persistent ? join(directory, `state-${++file}.json`) : undefined);

	it('refuses a payload nested 10,000 deep or too large, naming the field; nothing acknowledged is lost', async () => {
		const options = { dataFile: dataFile() };
		let sandbox = await startTestSandbox(options);
		const key = (sandbox.keys as SandboxKeys).automation;
		try {
			expect((await publishText(key, directUrl(sandbox), 'first', '{"n":1}')).status).toBe(202);

			const deep = await publishText(key, directUrl(sandbox), 'deep', nestedText(10_000));
			expect(deep.status).toBe(400);
			expect(deep.body).toMatchObject({
				error: {
					code: 'validation_failed',
					details: [expect.objectContaining({ field: 'body.payload' })],
				},
			});
			expect(JSON.stringify(deep.body)).toContain('32 levels');
			const large = await publishText(
				key,
				directUrl(sandbox),
				'large',
				JSON.stringify({ text: 'x'.repeat(70_000) }),
			);
			expect(large.status).toBe(400);
			expect(JSON.stringify(large.body)).toContain('body.payload');
			// The bound itself is accepted.
			expect((await publishText(key, directUrl(sandbox), 'at-bound', nestedText(32))).status).toBe(
				202,
			);
			expect((await publishText(key, directUrl(sandbox), 'second', '{"n":2}')).status).toBe(202);
			expect(await eventNames(sandbox, key)).toEqual(['second', 'at-bound', 'first']);

			if (persistent) {
				await sandbox.close();
				sandbox = await startTestSandbox(options);
				expect(await eventNames(sandbox, key)).toEqual(['second', 'at-bound', 'first']);
				expect((await publishText(key, directUrl(sandbox), 'third', '{}')).status).toBe(202);
			}
		} finally {
			await sandbox.close();
		}
	});

	it('undoes a change that cannot be saved, and later requests and restarts still work', async () => {
		const logged: string[] = [];
		const options = { dataFile: dataFile(), log: (message: string) => logged.push(message) };
		let sandbox = await startTestSandbox(options);
		const key = (sandbox.keys as SandboxKeys).automation;
		try {
			expect((await publishText(key, directUrl(sandbox), 'kept', '{}')).status).toBe(202);
			// As if a deep payload had got past the edge: a record no save can serialise.
			insertUnsavable(sandbox, 'evt_unsavable');
			expect(() => sandbox.save()).toThrow(RangeError);
			expect(sandbox.store.get('automationEvents', 'evt_unsavable')).toBeUndefined();

			// Once more, found by the next request's save instead: undone and reported, the request served.
			insertUnsavable(sandbox, 'evt_unsavable_2');
			expect(await eventNames(sandbox, key)).toEqual(['kept']);
			expect(logged.join('\n')).toContain('could not be saved and was undone');
			expect((await publishText(key, directUrl(sandbox), 'later', '{}')).status).toBe(202);

			await sandbox.close();
			if (persistent) sandbox = await startTestSandbox(options);
			else return;
			expect(await eventNames(sandbox, key)).toEqual(['later', 'kept']);
		} finally {
			await sandbox.close();
		}
	});
});

describe('npm run sandbox', () => {
	it('saves and exits cleanly on SIGTERM after a deep payload was refused', async () => {
		const dataFile = join(directory, 'sigterm.json');
		const child = spawn(
			join(__dirname, '..', '..', 'node_modules', '.bin', 'ts-node'),
			['--transpile-only', 'sandbox/main.ts', '--port', '0', '--data-file', dataFile],
			{ cwd: join(__dirname, '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] },
		);
		let output = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
		const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
		try {
			const deadline = Date.now() + 120_000;
			while (!/Automation key: (\S+)/.test(output) && Date.now() < deadline) {
				await new Promise((resolve) => setTimeout(resolve, 50));
			}
			const baseUrl = /listening on (\S+)/.exec(output)?.[1] as string;
			const key = /Automation key: (\S+)/.exec(output)?.[1] as string;
			expect(key).toMatch(/^mca_/);
			expect((await publishText(key, baseUrl, 'deep', nestedText(10_000))).status).toBe(400);
			expect((await publishText(key, baseUrl, 'kept', '{}')).status).toBe(202);
			child.kill('SIGTERM');
			expect(await exited).toBe(0);
			expect(output).toContain('SIGTERM: saving state and stopping');

			const reloaded = await startTestSandbox({ dataFile });
			try {
				expect(await eventNames(reloaded, key)).toEqual(['kept']);
			} finally {
				await reloaded.close();
			}
		} finally {
			if (child.exitCode === null) child.kill('SIGKILL');
		}
	}, 180_000);
});
