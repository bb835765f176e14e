/** Small pieces of English the messages and fields share. */

/** "a workspace", "an instance", "an automation". */
export function withArticle(word: string): string {
	return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

/** "an instance" → "An instance". */
export function capitalised(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

const SIZE_UNITS = ['KB', 'MB', 'GB'];

/**
 * A file's size as a person reads it: `512 bytes`, `11.0 KB`, `2.5 MB`, one decimal. The unit is chosen after
 * rounding, so that 1,048,575 bytes read `1.0 MB`, not `1024.0 KB`.
 */
export function sizeInWords(bytes: number): string {
	if (bytes < 1024) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
	let value = bytes / 1024;
	let unit = 0;
	while (Number(value.toFixed(1)) >= 1024 && unit < SIZE_UNITS.length - 1) {
		value /= 1024;
		unit += 1;
	}
	return `${value.toFixed(1)} ${SIZE_UNITS[unit]}`;
}
