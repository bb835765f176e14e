/**
 * The harness's regex engine (dev/harness/regex-engine.ts): n8n's own gives up after 250 ms of wall-clock time,
 * which a loaded machine reaches by pausing alone; the harness's keeps the vm and a limit out of load's reach.
 */
import { resetSafeRegexEngine, safeRegex } from 'n8n-workflow';

import { useUnhurriedRegexEngine } from '../../dev/harness/regex-engine';

// `^(x+)+$` against x…x! backtracks, its time doubling with each letter more. How many letters make a first run last
// 1 s or more is measured on this machine (26 on one where 23 took 217 ms), so that the first run is past n8n's 250
// ms and well within the harness's 10 s on any machine. Each run uses a letter not run before: V8 compiles a pattern
// to machine code once it has run, and the next run is far faster.
const unused = [...'cdefghijklmnopqrstuvwxyz'];
function lettersForOneSecond(): number {
	for (let length = 18; ; length++) {
		const letter = unused.shift();
		if (letter === undefined) throw new Error('no pattern reached 1 s');
		const started = performance.now();
		new RegExp(`^(${letter}+)+$`).test(`${letter.repeat(length)}!`);
		if (performance.now() - started >= 1000) return length;
	}
}
const length = lettersForOneSecond();
const slow = (letter: string): [string, string] => [`^(${letter}+)+$`, `${letter.repeat(length)}!`];

afterAll(() => useUnhurriedRegexEngine());

test('a regex n8n gives up on after 250 ms runs to its answer in the harness', () => {
	resetSafeRegexEngine();
	expect(() => safeRegex.test(...slow('a'))).toThrow('Regular expression execution timed out');
	useUnhurriedRegexEngine();
	expect(safeRegex.test(...slow('b'))).toBe(false);
	expect(safeRegex.exec('^order (\\d+)$', 'order 1042')?.[1]).toBe('1042');
	expect(safeRegex.replace('\\s+', 'a  b', 'g', '-')).toBe('a-b');
	expect(safeRegex.matchAll('\\d', 'a1b2').map((match) => match[0])).toEqual(['1', '2']);
	expect(safeRegex.split(',\\s*', 'a, b,c')).toEqual(['a', 'b', 'c']);
});
