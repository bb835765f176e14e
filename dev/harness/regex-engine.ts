/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code runs in plain Node, never inside n8n */
/**
 * The regex engine the harness gives n8n-workflow. n8n runs every regex it takes from a node (a resource locator's
 * validation before each execution, filters, expressions) in a vm with a 250 ms wall-clock timeout
 * (n8n-workflow's safe-regex). On a starved 2-core machine a pause of the process alone passes 250 ms, and a run
 * failed "Regular expression execution timed out" before any node ran (docs/n8n-findings.md, "A regex timeout
 * that load alone reaches").
 * The harness keeps the same vm and the same protection from runaway patterns, with a limit that load cannot
 * reach: what it tests is the package's nodes, not the machine's scheduler.
 */
import { createContext, Script } from 'node:vm';
import { setSafeRegexEngine, type RegexEngine } from 'n8n-workflow';

const TIMEOUT_MS = 10_000;

const script = (code: string) => new Script(`result = ${code}`);
const scripts = {
	exec: script('new RegExp(pattern, flags).exec(input)'),
	test: script('new RegExp(pattern, flags).test(input)'),
	replace: script('input.replace(new RegExp(pattern, flags), replacement)'),
	matchAll: script('Array.from(input.matchAll(new RegExp(pattern, flags)))'),
	split: script('input.split(new RegExp(pattern, flags))'),
};

function run<T>(which: keyof typeof scripts, values: Record<string, unknown>): T {
	const context = createContext({ ...values, result: undefined });
	scripts[which].runInContext(context, { timeout: TIMEOUT_MS });
	return context.result as T;
}

const withGlobal = (flags = '') => (flags.includes('g') ? flags : `${flags}g`);

const unhurriedRegexEngine: RegexEngine = {
	exec: (pattern, input, flags = '') => run('exec', { pattern, input, flags }),
	test: (pattern, input, flags = '') => run('test', { pattern, input, flags }),
	replace: (pattern, input, flags = '', replacement) =>
		run('replace', { pattern, input, flags, replacement }),
	matchAll: (pattern, input, flags) =>
		run('matchAll', { pattern, input, flags: withGlobal(flags) }),
	split: (pattern, input, flags = '') => run('split', { pattern, input, flags }),
};

/** Gives n8n-workflow the harness's engine; each entry of the harness calls it before n8n runs anything. */
export function useUnhurriedRegexEngine(): void {
	setSafeRegexEngine(unhurriedRegexEngine);
}
