// The files of the repository as git sees them: committed, and new ones not ignored (so that a check finds a
// file before it is committed too). Paths relative to the repository's root. Plain Node (never shipped).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** `root`: another repository, for a check's own test. */
export function repoFiles(root = REPO) {
	const listed = execFileSync(
		'git',
		['ls-files', '--cached', '--others', '--exclude-standard', '-z'],
		{
			cwd: root,
			encoding: 'utf8',
			maxBuffer: 64 * 1024 * 1024,
		},
	);
	return [...new Set(listed.split('\0').filter((path) => path !== ''))].sort();
}
