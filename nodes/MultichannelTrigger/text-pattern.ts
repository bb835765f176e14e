/**
 * The trigger's text pattern: a regular expression the user writes, run on text strangers send. JavaScript's
 * expressions have no time limit, so a pattern is refused when a quantified group holds a quantifier of its own
 * (`(a+)+`, `(\w*)*`, `(x+){2,}`): such nesting can take exponential time on a crafted text. What is left can still
 * be slow (polynomially) on long texts, so only the first MAX_TESTED_LENGTH characters of a text are tested.
 */

/** How much of a message's text a pattern is tested on. */
export const MAX_TESTED_LENGTH = 4096;
const MAX_PATTERN_LENGTH = 500;

/** The pattern, case insensitive, or why it cannot be used (a sentence to show the user). */
export function compilePattern(source: string): { pattern: RegExp } | { problem: string } {
	if (source.length > MAX_PATTERN_LENGTH) {
		return { problem: `the pattern is longer than ${MAX_PATTERN_LENGTH} characters` };
	}
	let pattern: RegExp;
	try {
		pattern = new RegExp(source, 'i');
	} catch (error) {
		return { problem: `not a valid regular expression (${(error as Error).message})` };
	}
	if (hasNestedQuantifier(source)) {
		return {
			problem:
				'a repeated group holds a repetition of its own, such as (a+)+, which can take very long on some texts; write it without the nesting, such as a+',
		};
	}
	return { pattern };
}

/** Whether the pattern matches a text (anywhere, case insensitive), the text cut to MAX_TESTED_LENGTH. */
export function patternMatches(pattern: RegExp, text: string): boolean {
	return pattern.test(text.slice(0, MAX_TESTED_LENGTH));
}

/** Whether a quantifier (`*`, `+`, `{n}`, `{n,}`, `{n,m}`) starts at `index`. */
function quantifierAt(source: string, index: number): boolean {
	const char = source[index];
	return (
		char === '*' || char === '+' || (char === '{' && /^\{\d+(,\d*)?\}/.test(source.slice(index)))
	);
}

/**
 * Whether a repeated group holds something repeated: a walk over the pattern that skips escaped characters and
 * character classes and keeps, for each open group, whether a quantifier was seen inside it.
 */
function hasNestedQuantifier(source: string): boolean {
	const open: boolean[] = [];
	const markInnermost = () => {
		if (open.length > 0) open[open.length - 1] = true;
	};
	let inClass = false;
	for (let index = 0; index < source.length; index++) {
		const char = source[index];
		if (char === '\\') index++;
		else if (inClass) inClass = char !== ']';
		else if (char === '[') inClass = true;
		else if (char === '(') open.push(false);
		else if (char === ')') {
			const repeatedInside = open.pop() ?? false;
			if (repeatedInside && quantifierAt(source, index + 1)) return true;
			if (repeatedInside) markInnermost();
		} else if (quantifierAt(source, index)) markInnermost();
	}
	return false;
}
