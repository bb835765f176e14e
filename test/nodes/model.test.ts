/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- made-up keys, which the tests look for in every output */
/**
 * The Model resource of the Multichannel node, run as real workflows (Manual Trigger → Items → Multichannel)
 * through n8n-core, with nock pinning every request on the wire.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { runNode, runListSearch, type NodeUnderTest } from '../../dev/harness';
import { nockOnly } from '../support/client';
import { byId, failure } from '../support/nodes';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

const BASE_URL = 'http://127.0.0.1:8787';
const API_KEY = 'mcw_live_4f7d9c2b1a0e8f6d';
/** A key without the service's prefix: only the node's own redaction (by value) can hide it. */
const UNPREFIXED_KEY = 'k7Q2xv9LmP4rT8wZ';
/** A key too short to be told from a word by its length: redacted where it stands as a word of its own. */
const SHORT_KEY = 'Qz7k';
const credentials = { multichannelApi: { baseUrl: BASE_URL, apiKey: API_KEY } };
const NODE_TYPE = 'n8n-nodes-multichannel.multichannel';

const MODELS = [
	{ id: 'gpt-4o-mini', object: 'model', created: 1721172741, owned_by: 'openai' },
	{ id: 'claude-3-5-haiku', object: 'model', created: 1729555200, owned_by: 'anthropic' },
	{ id: 'llama-3.1-8b', object: 'model', created: 1721692800, owned_by: 'meta' },
];

function modelNode(parameters: IDataObject, extra: Partial<NodeUnderTest> = {}): NodeUnderTest {
	return {
		type: NODE_TYPE,
		name: 'Multichannel',
		parameters: { resource: 'model', ...parameters },
		...extra,
	} as NodeUnderTest;
}

interface SeenRequest {
	method: string;
	url: string;
	authorization?: string;
	accept?: string;
}

/** A nock scope on the sandbox's address that records every request it answers. */
function service(): { scope: nock.Scope; seen: SeenRequest[] } {
	const seen: SeenRequest[] = [];
	const scope = nock(BASE_URL);
	scope.on('request', (request: { method: string; path: string; headers: IDataObject }) => {
		seen.push({
			method: request.method,
			url: `${BASE_URL}${request.path}`,
			authorization: request.headers.authorization as string | undefined,
			accept: request.headers.accept as string | undefined,
		});
	});
	return { scope, seen };
}

const expected = (path: string, apiKey = API_KEY): SeenRequest => ({
	method: 'GET',
	url: `${BASE_URL}${path}`,
	authorization: `Bearer ${apiKey}`,
	accept: 'application/json',
});

const errorBody = (code: string, message: string, requestId = 'req_123') => ({
	error: { code, message, requestId },
});

nockOnly();

describe('Model → Get Many', () => {
	test('Return All sends one authenticated GET /api/v1/models and outputs one item per model', async () => {
		const { scope, seen } = service();
		scope.get('/api/v1/models').reply(200, { object: 'list', data: MODELS });

		const result = await runNode(modelNode({ operation: 'getAll', returnAll: true }), {
			credentials,
		});

		expect(result.error).toBeUndefined();
		expect(seen).toEqual([expected('/api/v1/models')]);
		expect(result.output('Multichannel')).toEqual(
			MODELS.map((model) => ({ json: model, pairedItem: { item: 0 } })),
		);
	});

	test('Limit keeps the first models only', async () => {
		const { scope, seen } = service();
		scope.get('/api/v1/models').reply(200, { object: 'list', data: MODELS });

		const result = await runNode(modelNode({ operation: 'getAll', returnAll: false, limit: 2 }), {
			credentials,
		});

		expect(seen).toHaveLength(1);
		expect(result.json('Multichannel')).toEqual(MODELS.slice(0, 2));
	});

	test('Limit defaults to 50 when Return All is off', async () => {
		const many = Array.from({ length: 60 }, (_, index) => ({ id: `model-${index}` }));
		service().scope.get('/api/v1/models').reply(200, { data: many });

		const result = await runNode(modelNode({ operation: 'getAll' }), { credentials });

		expect(result.json('Multichannel')).toEqual(many.slice(0, 50));
	});

	test('each input item runs the operation once, and its outputs are paired with it', async () => {
		const { scope, seen } = service();
		scope
			.get('/api/v1/models')
			.times(2)
			.reply(200, { data: MODELS.slice(0, 2) });

		const result = await runNode(modelNode({ operation: 'getAll', returnAll: true }), {
			items: [{ run: 'a' }, { run: 'b' }],
			credentials,
		});

		expect(seen).toHaveLength(2);
		expect(result.output('Multichannel').map((item) => [item.json.id, item.pairedItem])).toEqual([
			['gpt-4o-mini', { item: 0 }],
			['claude-3-5-haiku', { item: 0 }],
			['gpt-4o-mini', { item: 1 }],
			['claude-3-5-haiku', { item: 1 }],
		]);
	});

	test('a base URL ending in a slash or in /api/v1 reaches the same endpoint', async () => {
		for (const baseUrl of [`${BASE_URL}/`, `${BASE_URL}/api/v1`, `${BASE_URL}/api/v1/`]) {
			const { scope, seen } = service();
			scope.get('/api/v1/models').reply(200, { data: [] });

			const result = await runNode(modelNode({ operation: 'getAll', returnAll: true }), {
				credentials: { multichannelApi: { baseUrl, apiKey: API_KEY } },
			});

			expect(result.error).toBeUndefined();
			expect(seen).toEqual([expected('/api/v1/models')]);
			expect(result.output('Multichannel')).toEqual([]);
		}
	});
});

describe('Model → Get', () => {
	test('several items: one GET per item, the ID from each item, outputs paired in order', async () => {
		const { scope, seen } = service();
		scope.get('/api/v1/models/gpt-4o-mini').reply(200, MODELS[0]);
		scope.get('/api/v1/models/claude-3-5-haiku').reply(200, MODELS[1]);
		scope.get('/api/v1/models/org%2Fllama%3A8b').reply(200, { id: 'org/llama:8b' });

		const result = await runNode(
			modelNode({ operation: 'get', modelId: byId('={{ $json.model }}') }),
			{
				items: [{ model: 'gpt-4o-mini' }, { model: 'claude-3-5-haiku' }, { model: 'org/llama:8b' }],
				credentials,
			},
		);

		expect(result.error).toBeUndefined();
		expect(seen).toEqual([
			expected('/api/v1/models/gpt-4o-mini'),
			expected('/api/v1/models/claude-3-5-haiku'),
			expected('/api/v1/models/org%2Fllama%3A8b'),
		]);
		expect(result.output('Multichannel')).toEqual([
			{ json: MODELS[0], pairedItem: { item: 0 } },
			{ json: MODELS[1], pairedItem: { item: 1 } },
			{ json: { id: 'org/llama:8b' }, pairedItem: { item: 2 } },
		]);
	});

	test('a model picked from the list is fetched by its ID', async () => {
		service().scope.get('/api/v1/models/llama-3.1-8b').reply(200, MODELS[2]);

		const result = await runNode(
			modelNode({
				operation: 'get',
				modelId: {
					__rl: true,
					mode: 'list',
					value: 'llama-3.1-8b',
					cachedResultName: 'llama-3.1-8b',
				},
			}),
			{ credentials },
		);

		expect(result.json('Multichannel')).toEqual([MODELS[2]]);
	});

	test('an empty model ID is an input error naming the field and the item, and nothing is sent', async () => {
		const { seen } = service();

		const result = await runNode(
			modelNode({ operation: 'get', modelId: byId('={{ $json.model }}') }),
			{
				items: [{ model: '' }],
				credentials,
			},
		);

		expect(seen).toEqual([]);
		expect(failure(result)).toMatchObject({
			name: 'NodeOperationError',
			message: expect.stringMatching(/^Invalid value for "Model" \[item 0\]: /),
			context: { itemIndex: 0 },
		});
	});

	test('404 names the resource and the item; with continueOnFail the other items still succeed', async () => {
		const { scope } = service();
		scope.get('/api/v1/models/gpt-4o-mini').reply(200, MODELS[0]);
		scope
			.get('/api/v1/models/retired')
			.reply(404, errorBody('not_found', 'No model retired in this workspace', 'req_404'));

		const result = await runNode(
			modelNode(
				{ operation: 'get', modelId: byId('={{ $json.model }}') },
				{ onError: 'continueRegularOutput' },
			),
			{ items: [{ model: 'gpt-4o-mini' }, { model: 'retired' }], credentials },
		);

		expect(result.error).toBeUndefined();
		const [found, missing] = result.output('Multichannel');
		expect(found).toEqual({ json: MODELS[0], pairedItem: { item: 0 } });
		expect(missing.pairedItem).toEqual({ item: 1 });
		expect(missing.json).toEqual({
			error: 'The model was not found [item 1]',
			details: {
				description: expect.stringContaining('No model retired in this workspace'),
				httpCode: '404',
				code: 'not_found',
				requestId: 'req_404',
				itemIndex: 1,
			},
		});
	});
});

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

describe('Model locator: From list', () => {
	test('lists the workspace models, filtered by what the user typed', async () => {
		const { scope, seen } = service();
		scope.get('/api/v1/models').times(2).reply(200, { object: 'list', data: MODELS });
		const locator = { ...modelNode({ operation: 'get' }), method: 'searchModels' };

		const all = await runListSearch(locator, { credentials });
		const filtered = await runListSearch({ ...locator, filter: 'ANTHRO' }, { credentials });

		expect(seen).toEqual([expected('/api/v1/models'), expected('/api/v1/models')]);
		expect(all.results).toEqual([
			{ name: 'claude-3-5-haiku (anthropic)', value: 'claude-3-5-haiku' },
			{ name: 'gpt-4o-mini (openai)', value: 'gpt-4o-mini' },
			{ name: 'llama-3.1-8b (meta)', value: 'llama-3.1-8b' },
		]);
		expect(filtered.results).toEqual([
			{ name: 'claude-3-5-haiku (anthropic)', value: 'claude-3-5-haiku' },
		]);
	});

	test('a rejected key gives the same actionable message in the list', async () => {
		service().scope.get('/api/v1/models').reply(401, errorBody('invalid_api_key', 'Nope'));

		await expect(
			runListSearch(
				{ ...modelNode({ operation: 'get' }), method: 'searchModels' },
				{ credentials },
			),
		).rejects.toThrow(/API key was rejected.*\/user\/api/);
	});
});
