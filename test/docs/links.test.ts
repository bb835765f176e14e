/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- tests run in plain Node, never inside n8n, and run the check as CI does (node and git) */
/**
 * The links between the repository's markdown files resolve, to a file and to a heading in it
 * (dev/package/doc-links.mjs): the README's sections moved to docs/ pages, and GitHub shows a link to a heading
 * that is no longer there without a word.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const CHECK = path.join(__dirname, '../../dev/package/doc-links.mjs');

/** What the check prints, and whether it passed, for this repository or `repo`. */
function check(repo?: string): { passed: boolean; output: string } {
	const args = repo ? [CHECK, repo] : [CHECK];
	try {
		return { passed: true, output: execFileSync('node', args, { encoding: 'utf8' }) };
	} catch (error) {
		const failed = error as { stdout: string; stderr: string };
		return { passed: false, output: `${failed.stderr}${failed.stdout}` };
	}
}

it('every link between the markdown files resolves', () => {
	const { passed, output } = check();
	expect(output).toContain('every link between the markdown files resolves');
	expect(passed).toBe(true);
});

it('names a link to a missing heading or file', () => {
	const repo = mkdtempSync(path.join(tmpdir(), 'doc-links-'));
	try {
		execFileSync('git', ['init', '-q'], { cwd: repo });
		writeFileSync(path.join(repo, 'README.md'), '# Title\n\n## What a re-run sends\n');
		writeFileSync(
			path.join(repo, 'guide.md'),
			'[ok](README.md#what-a-re-run-sends) [gone](README.md#quick-start) [none](missing.md)\n',
		);
		const { passed, output } = check(repo);
		expect(passed).toBe(false);
		expect(output).toContain('guide.md: README.md#quick-start (no heading #quick-start in README.md)');
		expect(output).toContain('guide.md: missing.md (no such file)');
		expect(output).not.toContain('#what-a-re-run-sends');
	} finally {
		rmSync(repo, { recursive: true, force: true });
	}
});
