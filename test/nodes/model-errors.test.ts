/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- made-up keys, which the tests look for in every output */
/**
 * The Model resource of the Multichannel node failing, run as real workflows (Manual Trigger → Items →
 * Multichannel) through n8n-core with nock answering: errors a person can act on, and no key in any of them.
 */
import nock from 'nock';

import { runNode } from '../../dev/harness';
import { nockOnly } from '../support/client';
import { byId, failure } from '../support/nodes';
import {
	API_KEY,
	BASE_URL,
	credentials,
	errorBody,
	MODELS,
	modelNode,
	service,
} from '../support/model';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

/** A key without the service's prefix: only the node's own redaction (by value) can hide it. */
const UNPREFIXED_KEY = 'k7Q2xv9LmP4rT8wZ';
/** A key too short to be told from a word by its length: redacted where it stands as a word of its own. */
const SHORT_KEY = 'Qz7k';

nockOnly();

describe('errors a person can act on', () => {
	test('401 stops the run with a NodeApiError saying the key was rejected and where to get one', async () => {
		service()
			.scope.get('/api/v1/models')
			.reply(401, errorBody('invalid_api_key', 'The API key is not valid', 'req_401'));

		const result = await runNode(modelNode({ operation: 'getAll', returnAll: true }), {
			credentials,
		});

		expect(result.run.status).toBe('error');
		const error = failure(result);
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toBe(
			'The workspace API key was rejected: check it in the credential, or generate a new one in the Multichannel console at http://127.0.0.1:8787/user/api',
		);
		expect(error.httpCode).toBe('401');
		expect(error.description).toContain('The API key is not valid');
		expect(error.description).toContain('Request ID: req_401');
		expect(error.context.itemIndex).toBe(0);
		expect(result.nodeError('Multichannel')?.message).toBe(error.message);
	});

	test('401 with continueOnFail: one error item per input item, paired, and the run succeeds', async () => {
		service()
			.scope.get('/api/v1/models')
			.times(2)
			.reply(401, errorBody('invalid_api_key', 'The API key is not valid'));

		const result = await runNode(
			modelNode({ operation: 'getAll', returnAll: true }, { onError: 'continueRegularOutput' }),
			{ items: [{}, {}], credentials },
		);

		expect(result.run.status).toBe('success');
		const output = result.output('Multichannel');
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		output.forEach((item, index) => {
			expect(item.json.error).toMatch(/API key was rejected.*\/user\/api/);
			expect(item.json.details).toMatchObject({ httpCode: '401', itemIndex: index });
		});
	});

	test('with "continue (using error output)" the failed items go to the error output', async () => {
		const { scope } = service();
		scope.get('/api/v1/models/gpt-4o-mini').reply(200, MODELS[0]);
		scope.get('/api/v1/models/nope').reply(401, errorBody('invalid_api_key', 'Revoked key'));

		const result = await runNode(
			modelNode(
				{ operation: 'get', modelId: byId('={{ $json.model }}') },
				{ onError: 'continueErrorOutput' },
			),
			{ items: [{ model: 'gpt-4o-mini' }, { model: 'nope' }], credentials },
		);

		expect(result.output('Multichannel', 0)).toEqual([
			{ json: MODELS[0], pairedItem: { item: 0 } },
		]);
		const failed = result.output('Multichannel', 1);
		expect(failed).toHaveLength(1);
		expect(failed[0].pairedItem).toEqual({ item: 1 });
		expect(failed[0].json.error).toMatch(/API key was rejected/);
	});

	test('403 says the key lacks the scope or is of another kind', async () => {
		service()
			.scope.get('/api/v1/models')
			.reply(403, errorBody('insufficient_scope', 'This key may not use messaging:read'));

		const result = await runNode(modelNode({ operation: 'getAll', returnAll: true }), {
			credentials,
		});

		expect(failure(result)).toMatchObject({
			name: 'NodeApiError',
			httpCode: '403',
			message:
				'The API key is not allowed to do this: it lacks the messaging:read scope, or it is not a workspace key',
		});
	});

	test('429 after the retries says how long to wait', async () => {
		const { scope, seen } = service();
		scope
			.get('/api/v1/models')
			.reply(429, errorBody('rate_limited', 'Too many requests'), { 'Retry-After': '0' });
		scope
			.get('/api/v1/models')
			.reply(429, errorBody('rate_limited', 'Too many requests'), { 'Retry-After': '90' });

		const result = await runNode(modelNode({ operation: 'getAll', returnAll: true }), {
			credentials,
		});

		expect(seen).toHaveLength(2);
		expect(failure(result)).toMatchObject({
			name: 'NodeApiError',
			httpCode: '429',
			message: 'The Multichannel service is rate limiting this key: wait 90 s before trying again',
			description: expect.stringMatching(/Retry On Fail.*at least 90 s/),
		});
	});

	test('a refused connection is retried, then a NodeApiError pointing at the base URL', async () => {
		const { scope, seen } = service();
		scope
			.get('/api/v1/models')
			.times(4)
			.replyWithError(
				Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8787'), { code: 'ECONNREFUSED' }),
			);

		const result = await runNode(modelNode({ operation: 'getAll', returnAll: true }), {
			credentials,
		});

		expect(seen).toHaveLength(4);
		expect(failure(result)).toMatchObject({
			name: 'NodeApiError',
			message: 'Could not reach the Multichannel service at http://127.0.0.1:8787',
			description: expect.stringMatching(
				/^Nothing accepted the connection at http:\/\/127\.0\.0\.1:8787 \(ECONNREFUSED\).*Check the Base URL in the credential/,
			),
		});
	}, 20_000);

	test('a host name that cannot be resolved is named, with what to check', async () => {
		nock('http://api.example.test')
			.get('/api/v1/models')
			.replyWithError(
				Object.assign(new Error('getaddrinfo ENOTFOUND api.example.test'), { code: 'ENOTFOUND' }),
			);

		const result = await runNode(modelNode({ operation: 'getAll', returnAll: true }), {
			credentials: { multichannelApi: { baseUrl: 'http://api.example.test', apiKey: API_KEY } },
			clientOptions: { maxRetries: 0 },
		});

		expect(failure(result)).toMatchObject({
			message: 'Could not reach the Multichannel service at http://api.example.test',
			description: expect.stringMatching(
				/^The host name api\.example\.test could not be found \(ENOTFOUND\).*Check the Base URL in the credential/,
			),
		});
	});

	test('401 with a base URL given with /api/v1 points at the console of that host, never with the key', async () => {
		nock('https://api.example.test')
			.get('/api/v1/models')
			.reply(401, errorBody('invalid_api_key', 'The API key is not valid'));

		const result = await runNode(modelNode({ operation: 'getAll', returnAll: true }), {
			credentials: {
				multichannelApi: { baseUrl: 'https://api.example.test/api/v1/', apiKey: API_KEY },
			},
		});

		expect(failure(result).message).toMatch(
			/generate a new one in the Multichannel console at https:\/\/api\.example\.test\/user\/api$/,
		);
		expect(JSON.stringify(result.run.data.resultData)).not.toContain(API_KEY);
	});

	test('a base URL that is not http(s) is an input error about the credential', async () => {
		const result = await runNode(modelNode({ operation: 'getAll', returnAll: true }), {
			credentials: { multichannelApi: { baseUrl: 'ftp://example.com', apiKey: API_KEY } },
		});

		expect(failure(result)).toMatchObject({
			name: 'NodeOperationError',
			message: 'The base URL in the credential is not valid',
		});
	});
});

describe('no key anywhere', () => {
	test.each([
		['a prefixed key', API_KEY],
		['an unprefixed key', UNPREFIXED_KEY],
		['a key shorter than 6 characters', SHORT_KEY],
	])('%s echoed back by the service appears in no output, error or message', async (_, apiKey) => {
		const echo = `Key ${apiKey} was revoked (Authorization: Bearer ${apiKey})`;
		const { scope, seen } = service();
		scope.get('/api/v1/models').times(2).reply(401, errorBody('invalid_api_key', echo));
		scope
			.get('/api/v1/models/x')
			.reply(403, { error: { code: 'forbidden', message: echo, details: [echo] } });

		const keyCredentials = { multichannelApi: { baseUrl: BASE_URL, apiKey } };
		const failing = await runNode(modelNode({ operation: 'getAll', returnAll: true }), {
			credentials: keyCredentials,
		});
		const continued = await runNode(
			modelNode({ operation: 'getAll', returnAll: true }, { onError: 'continueRegularOutput' }),
			{ credentials: keyCredentials },
		);
		const forbidden = await runNode(
			modelNode({ operation: 'get', modelId: byId('x') }, { onError: 'continueRegularOutput' }),
			{ credentials: keyCredentials },
		);

		expect(seen.map((request) => request.authorization)).toEqual([
			`Bearer ${apiKey}`,
			`Bearer ${apiKey}`,
			`Bearer ${apiKey}`,
		]);
		expect(failure(failing).description).toContain('[redacted]');
		expect(continued.json('Multichannel')[0].error).toMatch(/API key was rejected/);
		expect(forbidden.json('Multichannel')[0].details).toMatchObject({ httpCode: '403' });
		for (const result of [failing, continued, forbidden]) {
			expect(JSON.stringify(result.run.data.resultData)).not.toContain(apiKey);
		}
	});
	test("a failure wrapped by n8n's HTTP layer (TLS) is passed on without the request it carried", async () => {
		service()
			.scope.get('/api/v1/models')
			.replyWithError(
				Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' }),
			);

		const result = await runNode(modelNode({ operation: 'getAll', returnAll: true }), {
			credentials,
		});

		expect(failure(result)).toMatchObject({
			name: 'NodeApiError',
			message: 'Could not reach the Multichannel service at http://127.0.0.1:8787',
			description: expect.stringMatching(
				/^The TLS certificate of http:\/\/127\.0\.0\.1:8787 was not accepted \(CERT_HAS_EXPIRED\): certificate has expired\. Check the Base URL in the credential, and that the service’s certificate is valid/,
			),
		});
		expect(JSON.stringify(result.run.data.resultData)).not.toContain(API_KEY);
	});
});
