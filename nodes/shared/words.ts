/** Small pieces of English the messages and fields share. */

/** "a workspace", "an instance", "an automation". */
export function withArticle(word: string): string {
	return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

/** "an instance" → "An instance". */
export function capitalised(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
