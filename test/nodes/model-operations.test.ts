/**
 * The Model resource of the Multichannel node, Get Many, Get and the model locator's "From list", run as real
 * workflows (Manual Trigger → Items → Multichannel) through n8n-core, with nock pinning every request on the wire.
 */
import { runNode, runListSearch } from '../../dev/harness';
import { nockOnly } from '../support/client';
import { byId, failure } from '../support/nodes';
import {
	API_KEY,
	BASE_URL,
	credentials,
	errorBody,
	expected,
	MODELS,
	modelNode,
	service,
} from '../support/model';

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
