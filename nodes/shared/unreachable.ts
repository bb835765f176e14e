/**
 * What a node says when no answer came from the service: which address could not be reached, why in plain
 * words (from the system's error code), and what to check. Nothing here names more than the origin.
 */

const CHECK =
	' Check the Base URL in the credential (the address and port of the service), that the service is running, and that n8n can reach it: a firewall or a proxy may be in the way, and inside Docker 127.0.0.1 is n8n’s own container.';
const CHECK_TLS =
	' Check the Base URL in the credential, and that the service’s certificate is valid and trusted by n8n.';

function isTls(code: string | undefined): boolean {
	return code !== undefined && /CERT|TLS|SSL|SIGNATURE/i.test(code);
}

function hostOf(origin: string): string {
	try {
		return new URL(origin).hostname;
	} catch {
		return origin;
	}
}

/** The system's code in plain words. */
function why(origin: string, code: string | undefined, said: string): string {
	switch (code) {
		case 'ECONNREFUSED':
			return `Nothing accepted the connection at ${origin} (${code}): the service is not running there, or the port is wrong.`;
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
			return `The host name ${hostOf(origin)} could not be found (${code}): it may be misspelled, or unknown to the DNS n8n uses.`;
		case 'EHOSTUNREACH':
		case 'ENETUNREACH':
			return `There is no network route from n8n to ${hostOf(origin)} (${code}).`;
		case 'ECONNRESET':
		case 'EPIPE':
		case 'UND_ERR_SOCKET':
			return `The connection to ${origin} was closed before the service answered (${code}).`;
		default:
			if (isTls(code)) {
				return `The TLS certificate of ${origin} was not accepted (${code}): ${said.replace(/\.+$/, '')}.`;
			}
			return `${said.replace(/\.+$/, '')}${code && !said.includes(code) ? ` (${code})` : ''}.`;
	}
}

/** The title and description of a request that got no answer. */
export function unreachable(
	origin: string | undefined,
	code: string | undefined,
	said: string,
): { message: string; description: string } {
	const where = origin ?? 'the base URL in the credential';
	return {
		message: `Could not reach the Multichannel service${origin ? ` at ${origin}` : ''}`,
		description: `${why(where, code, said)}${isTls(code) ? CHECK_TLS : CHECK}`,
	};
}

/** The title of a request the service did not answer in time. */
export function tooSlow(origin: string | undefined): string {
	return `The Multichannel service${origin ? ` at ${origin}` : ''} did not answer in time`;
}
