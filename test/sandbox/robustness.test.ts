/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { HttpError } from '../../sandbox/errors';
import { createRequestHandler } from '../../sandbox/http/pipeline/handler';
import { postChunked, raw, suiteSandbox } from '../support/sandbox';

/** No request of any shape ends the sandbox: oversized chunked bodies get 413, anything else 500 at worst. */

describe('bodies over the limit, sent chunked', () => {
	const suite = suiteSandbox();
	const unhandled: unknown[] = [];
	const record = (reason: unknown) => unhandled.push(reason);
	beforeAll(() => process.on('unhandledRejection', record));
	afterAll(() => process.off('unhandledRejection', record));

	const stillServing = async () => {
		const answer = await raw(suite.sandbox.baseUrl, 'GET', '/api/v1/models', {
			key: suite.keys.workspace,
		});
		expect(answer.status).toBe(200);
	};

	it('answers 413 to 2 MB sent chunked to the API, and keeps serving', async () => {
		const { sandbox, keys } = suite;
		const answer = await postChunked(sandbox.baseUrl, '/api/v1/instances', {
			key: keys.workspace,
			bytes: 2 * 1024 * 1024,
		});
		expect(answer).toMatchObject({ status: 413, body: { error: { code: 'payload_too_large' } } });
		await stillServing();
		expect(sandbox.store.all('instances')).toHaveLength(0);
		expect(unhandled).toEqual([]);
	});

	it("answers 413 to more than 16 KiB sent chunked to the console's /user/api/keys, and keeps serving", async () => {
		const { sandbox, keys } = suite;
		const answer = await postChunked(sandbox.baseUrl, '/user/api/keys', {
			key: keys.workspace,
			bytes: 20 * 1024,
		});
		expect(answer).toMatchObject({ status: 413, body: { error: { code: 'payload_too_large' } } });
		await stillServing();
		expect(unhandled).toEqual([]);
	});

	it('keeps serving when a chunked body goes on far past the limit (the connection may be cut)', async () => {
		const { sandbox, keys } = suite;
		const answers = await Promise.all([
			postChunked(sandbox.baseUrl, '/user/api/keys', {
				key: keys.workspace,
				bytes: 8 * 1024 * 1024,
			}),
			postChunked(sandbox.baseUrl, '/api/v1/instances', {
				key: keys.workspace,
				bytes: 24 * 1024 * 1024,
			}),
		]);
		for (const answer of answers) {
			if (answer.status !== undefined) expect(answer.status).toBe(413);
		}
		await stillServing();
		expect(unhandled).toEqual([]);
	});
});

describe('the request listener', () => {
	let server: Server;
	let baseUrl: string;
	const outcomes: string[] = [];

	beforeAll(async () => {
		// A failure whose own answer cannot be written (a header value with a line break).
		const handle = createRequestHandler(
			() => {
				throw new HttpError(400, 'bad', 'bad', [], { 'X-Broken': 'a\nb' });
			},
			() => undefined,
		);
		server = createServer((req, res) => {
			handle(req, res).then(
				() => outcomes.push('resolved'),
				() => outcomes.push('rejected'),
			);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});

	it('never rejects: a failure while answering a failure becomes a 500 JSON answer', async () => {
		const answer = await raw(baseUrl, 'GET', '/anything');
		expect(answer.status).toBe(500);
		expect(answer.body).toMatchObject({ error: { code: 'internal_error' } });
		expect(outcomes).toEqual(['resolved']);
	});
});
