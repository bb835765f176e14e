#!/usr/bin/env node
// `npm run check:links`: every link of the repository's markdown files to a file of the repository, or to a
// heading of one, resolves. The README's sections moved to docs/ pages (issue 45), and a link to a heading that
// moved breaks without a word on GitHub. Web addresses are not followed. Plain Node (never shipped).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

import { REPO, repoFiles } from './repo-files.mjs';

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, each space a hyphen. */
export function anchorOf(heading) {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');
}

/** The text outside fenced code blocks, where links are links. */
function prose(text) {
	return text.replace(/^```[\s\S]*?^```/gm, '');
}

/** The anchors of a markdown file's headings; a repeated heading gets -1, -2… as on GitHub. */
function anchorsIn(text) {
	const seen = new Map();
	const anchors = new Set();
	for (const [, heading] of prose(text).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
		const anchor = anchorOf(heading.replace(/`/g, ''));
		const count = seen.get(anchor) ?? 0;
		anchors.add(count === 0 ? anchor : `${anchor}-${count}`);
		seen.set(anchor, count + 1);
	}
	return anchors;
}

/** Each link of the markdown files that does not resolve, as `file: target (why)`. */
export function brokenLinks(root = REPO) {
	const markdown = repoFiles(root).filter((path) => path.endsWith('.md') && existsSync(join(root, path)));
	const texts = new Map(markdown.map((path) => [path, readFileSync(join(root, path), 'utf8')]));
	const broken = [];
	for (const [path, text] of texts) {
		for (const [, target] of prose(text).matchAll(/\]\(([^()\s]+(?:\([^()\s]*\))?[^()\s]*)\)/g)) {
			if (/^[a-z]+:/i.test(target)) continue; // a web address or mailto:
			const [file, anchor] = target.split('#');
			const resolved = file === '' ? path : normalize(relative(root, join(root, dirname(path), file)));
			if (!existsSync(join(root, resolved))) {
				broken.push(`${path}: ${target} (no such file)`);
				continue;
			}
			if (anchor === undefined || statSync(join(root, resolved)).isDirectory()) continue;
			const linked = texts.get(resolved) ?? readFileSync(join(root, resolved), 'utf8');
			if (resolved.endsWith('.md') && !anchorsIn(linked).has(anchor)) {
				broken.push(`${path}: ${target} (no heading #${anchor} in ${resolved})`);
			}
		}
	}
	return broken;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
	// A repository named on the command line, or this one.
	const broken = brokenLinks(process.argv[2] ?? REPO);
	for (const line of broken) console.error(line);
	console.log(
		broken.length === 0
			? 'links: every link between the markdown files resolves'
			: `links: ${broken.length} broken`,
	);
	process.exitCode = broken.length === 0 ? 0 : 1;
}
