/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- made-up keys, which the tests look for in every output */
/**
 * The Short Link node with keys the sandbox refuses (unknown, or of the wrong kind), run as real workflows
 * (Manual Trigger → Items → node) through n8n-core: the errors a person can act on.
 */
import { failure } from '../support/nodes';
import { linkNode, NODE_NAME, useShortLinkSandbox } from '../support/short-link';

const suite = useShortLinkSandbox();
const { run } = suite;

describe('keys the service refuses (sandbox)', () => {
	const getMany = linkNode({ resource: 'link', operation: 'getAll', returnAll: true, filters: {} });

	test('401: an unknown key is rejected with where to get one', async () => {
		const result = await run(getMany, { apiKey: 'mcl_not_a_real_key_0000000000' });

		expect(failure(result)).toMatchObject({
			name: 'NodeApiError',
			httpCode: '401',
			message: `The short-link API key was rejected: check it in the credential, or generate a new one in the Multichannel console at ${suite.sandbox.baseUrl}/user/api`,
		});
	});

	test('403: a workspace key on the short-link credential is of the wrong kind', async () => {
		const result = await run(getMany, { apiKey: suite.keys.workspace });

		expect(failure(result)).toMatchObject({
			name: 'NodeApiError',
			httpCode: '403',
			message:
				'The API key is not allowed to do this: it lacks the links:read scope, or it is not a short-link key',
		});
	});

	test('with "continue on fail" every item gets its own 401 error item', async () => {
		const result = await run(
			{ ...getMany, onError: 'continueRegularOutput' },
			{ apiKey: 'mcl_not_a_real_key_0000000000', items: [{}, {}] },
		);

		expect(result.run.status).toBe('success');
		expect(result.output(NODE_NAME).map((item) => [item.pairedItem, item.json.details])).toEqual([
			[{ item: 0 }, expect.objectContaining({ httpCode: '401', itemIndex: 0 })],
			[{ item: 1 }, expect.objectContaining({ httpCode: '401', itemIndex: 1 })],
		]);
	});
});
