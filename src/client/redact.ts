/**
 * Keys and secrets must never reach node output, error messages or logs. Everything the client turns into
 * text that a person may see (error messages, details) passes through here first.
 */
const SECRET_PATTERNS: RegExp[] = [
	/(Bearer\s+)[^\s"',;]+/gi,
	/\b(mc[wla]_)[A-Za-z0-9_-]{6,}/g,
	/\b(whsec_)[A-Za-z0-9_-]{6,}/g,
];

/**
 * From this length on, a given secret is redacted wherever it stands, even inside other text. A shorter one
 * could be part of ordinary words, so it is redacted only where it stands as a word of its own (not next to
 * a letter, a digit, `_` or `-`).
 */
const ANYWHERE_MIN_LENGTH = 6;

function escapeForPattern(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function redactSecrets(text: string, extraSecrets: readonly string[] = []): string {
	let result = text;
	// Longest first, so that a secret containing a shorter one is redacted whole.
	const secrets = [...new Set(extraSecrets)]
		.filter((secret) => typeof secret === 'string' && secret !== '')
		.sort((a, b) => b.length - a.length);
	for (const secret of secrets) {
		result =
			secret.length >= ANYWHERE_MIN_LENGTH
				? result.split(secret).join('[redacted]')
				: result.replace(
						new RegExp(`(?<![A-Za-z0-9_-])${escapeForPattern(secret)}(?![A-Za-z0-9_-])`, 'g'),
						'[redacted]',
					);
	}
	for (const pattern of SECRET_PATTERNS) result = result.replace(pattern, '$1[redacted]');
	return result;
}
