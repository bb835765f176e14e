/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code runs in plain Node, never inside n8n: it runs jest in a child process and reads test files */
/**
 * A test run prints only what goes wrong. nock patches Node's http for the whole jest worker, and keeps its
 * interceptor on the test file's global object; jest 30 discards a file's globals when the file ends, so a
 * patch left in place makes every later request in that worker touch a discarded object, and jest warns
 * ("[JEST-01] DeprecationWarning: 'emitter' property was accessed on [_ClientRequestInterceptor] after it
 * was soft deleted"). Every test module that imports nock undoes its patch when the test file ends
 * (`afterAll(() => nock.restore())`); a helper module that imports nock does it for the files that import it.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { PACKAGE_DIR } from '../../dev/harness';

function testFiles(directory: string): string[] {
	return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
		const file = path.join(directory, entry.name);
		if (entry.isDirectory()) return testFiles(file);
		return entry.name.endsWith('.ts') ? [file] : [];
	});
}

test('every test module that uses nock undoes its patch of http when its test file ends', () => {
	const users = testFiles(path.join(PACKAGE_DIR, 'test')).filter((file) =>
		/^import nock from 'nock';$/m.test(readFileSync(file, 'utf8')),
	);
	expect(users.length).toBeGreaterThan(0);
	// A helper module that imports nock undoes the patch for every test file that imports it.
	const forgetful = users
		.filter((file) => !/afterAll\(\(\) => nock\.restore\(\)\)/.test(readFileSync(file, 'utf8')))
		.map((file) => path.relative(PACKAGE_DIR, file));
	expect(forgetful).toEqual([]);
});

test('node tests using nock, one after the other in one worker, print no deprecation warning', () => {
	const run = spawnSync(
		process.execPath,
		[
			require.resolve('jest/bin/jest'),
			'--runInBand',
			'test/nodes/credentials.test.ts',
			'test/nodes/errors.test.ts',
		],
		{ cwd: PACKAGE_DIR, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } },
	);
	expect(run.stderr).toMatch(/Tests: +\d+ passed/);
	expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/soft deleted|DeprecationWarning/);
}, 120_000);
