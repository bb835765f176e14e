/**
 * The name a kept file goes by, whoever chose it (an upload's filename, a send's `fileName`, the last segment
 * of a URL): its base name only (what follows the last `/` or `\`), without control characters, at most 255
 * characters (the stem is cut, the extension kept). It is shown in `media.fileName` and sent back in the
 * download's Content-Disposition, so `../../../etc/passwd` is kept as `passwd`.
 */
import { FILE_NAME_MAX_LENGTH } from '../../src/client/schemas';

/** The contract's bound: a longer name in a request is refused; one taken from a URL is cut to it. */
const MAX_CHARACTERS = FILE_NAME_MAX_LENGTH;

export function safeFileName(name: string | null | undefined): string | null {
	if (!name) return null;
	const base = [...(name.split(/[/\\]/).pop() ?? '')]
		.filter((character) => !isControl(character.codePointAt(0) ?? 0))
		.join('')
		.trim();
	if (base === '' || base === '.' || base === '..') return null;
	const characters = [...base];
	if (characters.length <= MAX_CHARACTERS) return base;
	const dot = base.lastIndexOf('.');
	const extension = dot > 0 && base.length - dot <= 16 ? [...base.slice(dot)] : [];
	return [...characters.slice(0, MAX_CHARACTERS - extension.length), ...extension].join('');
}

/** C0 controls, DEL and C1 controls. */
function isControl(code: number): boolean {
	return code <= 0x1f || (code >= 0x7f && code <= 0x9f);
}
