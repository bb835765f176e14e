/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code runs in plain Node, never inside n8n */
/**
 * Edges of the contract that schemathesis found (issue 33, finding 6): a multipart `file` part without a
 * filename; the date-time pattern, which must say exactly what the service takes; bytes Node's HTTP parser
 * refuses, answered in the contract's error shape; and patterns in the plainest regex dialect.
 */
import { connect } from 'node:net';

import { errorValidator } from '../support/contract';
import { directUrl, raw, suiteSandbox } from '../support/sandbox';

const suite = suiteSandbox();

/** The document the sandbox serves: what a contract tool reads. */
async function servedDocument(): Promise<unknown> {
	const answer = await raw(suite.sandbox.baseUrl, 'GET', '/api/v1/openapi.json');
	expect(answer.status).toBe(200);
	return answer.body;
}

/** Every `pattern` of a JSON document, and the path of the schema that holds it. */
function patternsOf(value: unknown, at = ''): Array<[string, string]> {
	if (!value || typeof value !== 'object') return [];
	return Object.entries(value).flatMap(
		([name, inner]): Array<[string, string]> =>
			name === 'pattern' && typeof inner === 'string'
				? [[at, inner]]
				: patternsOf(inner, `${at}/${name}`),
	);
}

it('takes a multipart file part without a filename (RFC 7578 makes it optional) as the file', async () => {
	const { sandbox, keys } = suite;
	const call = (path: string, body: unknown) =>
		raw(sandbox.baseUrl, 'POST', path, { key: keys.workspace, body });
	const instance = (await call('/api/v1/instances', { name: 'Uploads' })).body as { id: string };
	await call(`/api/v1/instances/${instance.id}/connect`, { method: 'qr' });
	expect((await call(`/sandbox/instances/${instance.id}/scan`, {})).status).toBe(200);

	const boundary = 'edge-boundary';
	const body = [
		`--${boundary}`,
		'Content-Disposition: form-data; name="to"',
		'',
		'+14155550123',
		`--${boundary}`,
		'Content-Disposition: form-data; name="mediaType"',
		'',
		'document',
		`--${boundary}`,
		'Content-Disposition: form-data; name="file"',
		'Content-Type: application/pdf',
		'',
		'%PDF-1.4 no filename',
		`--${boundary}--`,
		'',
	].join('\r\n');
	const answer = await raw(
		sandbox.baseUrl,
		'POST',
		`/api/v1/instances/${instance.id}/messages/media/upload`,
		{
			key: keys.workspace,
			body,
			headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
		},
	);
	expect(answer).toMatchObject({
		status: 201,
		body: { content: { mimeType: 'application/pdf', size: 20 } },
	});
});

it('the date-time pattern admits exactly the date-times the service takes', async () => {
	const patterns = patternsOf(await servedDocument())
		.filter(([at]) => /since|until|expiresAt|occurredAt/.test(at))
		.map(([, pattern]) => pattern);
	expect(patterns.length).toBeGreaterThan(0);
	const pattern = new RegExp(patterns[0], 'u');
	expect(new Set(patterns)).toEqual(new Set([patterns[0]]));

	const { sandbox, keys } = suite;
	const link = await raw(sandbox.baseUrl, 'POST', '/api/v1/links', {
		key: keys.shortLink,
		body: { url: 'https://example.com/edges' },
	});
	const linkId = (link.body as { id: string }).id;
	const values = [
		'0000-00-00T00:00:00Z',
		'2026-00-10T00:00:00Z',
		'2026-13-01T00:00:00Z',
		'2026-04-31T00:00:00Z',
		'2026-02-29T00:00:00Z',
		'1900-02-29T00:00:00Z',
		'2024-02-29T00:00:00Z',
		'2000-02-29T23:59:59.5+23:59',
		'0000-01-01T00:00:00Z',
		'2026-11-24T10:00:00-05:30',
		'2026-11-24T24:00:00Z',
		'2026-11-24T10:00Z',
	];
	for (const value of values) {
		const answer = await raw(
			sandbox.baseUrl,
			'GET',
			`/api/v1/links/${linkId}/clicks?since=${encodeURIComponent(value)}`,
			{ key: keys.shortLink },
		);
		expect([value, answer.status === 200]).toEqual([value, pattern.test(value)]);
		if (answer.status !== 200) expect(answer.status).toBe(400);
	}
});

it('writes its patterns with [0-9] and [A-Za-z0-9_], never \\d or \\w (which mean more to non-ECMA engines)', async () => {
	const loose = patternsOf(await servedDocument()).filter(([, pattern]) =>
		/\\[dDwW]/.test(pattern.replace(/\\\\/g, '')),
	);
	expect(loose).toEqual([]);
});

it('answers bytes a header may not hold in the contract error shape, not with a bare 400', async () => {
	// Straight to the sandbox: under `npm run test:contract` its base URL is the contract proxy's front.
	const url = new URL(directUrl(suite.sandbox));
	const text = await new Promise<string>((resolve, reject) => {
		const socket = connect(Number(url.port), url.hostname);
		let received = '';
		socket.on('data', (chunk) => (received += chunk.toString('utf8')));
		socket.on('end', () => resolve(received));
		socket.on('error', reject);
		socket.write(
			`GET /api/v1/models HTTP/1.1\r\nHost: ${url.host}\r\nX-Broken: a\u0001b\r\n\r\n`,
			'latin1',
		);
	});
	const [head, body] = text.split('\r\n\r\n');
	expect(head).toMatch(/^HTTP\/1\.1 400 /);
	expect(head).toMatch(/content-type: application\/json/i);
	const parsed = JSON.parse(body) as { error: { code: string; requestId: string } };
	expect(errorValidator(parsed)).toBeNull();
	expect(parsed.error.code).toBe('malformed_request');
	expect(head).toContain(`X-Request-Id: ${parsed.error.requestId}`);
	// The sandbox goes on serving.
	const models = await raw(suite.sandbox.baseUrl, 'GET', '/api/v1/models', {
		key: suite.keys.workspace,
	});
	expect(models.status).toBe(200);
});
