/**
 * Keys and secrets must never reach node output, error messages or logs. Everything the client turns into
 * text that a person may see (error messages, details) passes through here first.
 */
const SECRET_PATTERNS: RegExp[] = [
	/(Bearer\s+)[^\s"',;]+/gi,
	/\b(mc[wla]_)[A-Za-z0-9_-]{6,}/g,
	/\b(whsec_)[A-Za-z0-9_-]{6,}/g,
];

export function redactSecrets(text: string, extraSecrets: readonly string[] = []): string {
	let result = text;
	for (const secret of extraSecrets) {
		if (secret.length >= 6) result = result.split(secret).join('[redacted]');
	}
	for (const pattern of SECRET_PATTERNS) result = result.replace(pattern, '$1[redacted]');
	return result;
}
