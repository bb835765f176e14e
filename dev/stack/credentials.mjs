// The three n8n credentials of the stack, one per key kind, pointed at its sandbox. Plain Node (never shipped).
/** The three credentials, by credential type: the key kind each takes and the name it gets in n8n. */
const SANDBOX_CREDENTIALS = {
	multichannelApi: { key: 'workspace', name: 'Multichannel sandbox (workspace key)' },
	multichannelShortLinkApi: { key: 'shortLink', name: 'Multichannel sandbox (short-link key)' },
	multichannelAutomationApi: { key: 'automation', name: 'Multichannel sandbox (automation key)' },
};

/** Whether n8n's public API lists and changes credentials: n8n 2.x's does; 1.x's only creates them. */
async function hasCredentialsApi(client) {
	const probe = await client.request('GET', '/api/v1/credentials?limit=1', {
		headers: { 'x-n8n-api-key': client.apiKey },
	});
	return probe.status === 200;
}

/** Every credential n8n holds: through the public API, or n8n 1.x's REST API, which also takes changes. */
export async function listCredentials(client) {
	return (await hasCredentialsApi(client))
		? await client.listAll('/credentials')
		: await client.rest('GET', '/credentials');
}

/**
 * A new credential: through the public API, or n8n 1.x's REST API, whose public API wants every field of the
 * credential's schema (n8n's own `allowedDomains` too).
 */
export async function createCredential(client, credential, publicApi = undefined) {
	return (publicApi ?? (await hasCredentialsApi(client)))
		? await client.api('POST', '/credentials', credential)
		: await client.rest('POST', '/credentials', credential);
}

/**
 * The three credentials for the sandbox's keys: created through the public API, or, when they exist, pointed at
 * this sandbox (`PATCH /credentials/{id}` replaces their data), so that a start with another sandbox port or new
 * keys leaves no credential on the old ones. Workflows keep using them by id.
 */
export async function ensureCredentials(client, { baseUrl, keys }) {
	const publicApi = await hasCredentialsApi(client);
	const existing = await listCredentials(client);
	const result = {};
	for (const [type, { key, name }] of Object.entries(SANDBOX_CREDENTIALS)) {
		const data = { baseUrl, apiKey: keys[key] };
		let credential = existing.find(
			(candidate) => candidate.type === type && candidate.name === name,
		);
		if (credential && publicApi) {
			await client.api('PATCH', `/credentials/${credential.id}`, { data });
		} else if (credential) {
			await client.rest('PATCH', `/credentials/${credential.id}`, { name, type, data });
		} else {
			credential = await createCredential(client, { name, type, data }, publicApi);
		}
		result[type] = { id: credential.id, name: credential.name };
	}
	return result;
}
