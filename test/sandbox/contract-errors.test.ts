import type { Sandbox } from '../../sandbox/server';
import { errorValidator } from '../support/contract';
import { raw, startTestSandbox } from '../support/sandbox';

/** The sandbox's error answers against the OpenAPI document's Error schema, made strict. */

type Keys = NonNullable<Sandbox['keys']>;

describe('sandbox contract: every operation of the OpenAPI document', () => {
	let sandbox: Sandbox;
	let keys: Keys;

	beforeAll(async () => {
		sandbox = await startTestSandbox();
		keys = sandbox.keys as Keys;
	});
	afterAll(async () => {
		await sandbox.close();
	});

	it('answers errors in the document’s Error shape', async () => {
		const answers = [
			await raw(sandbox.baseUrl, 'GET', '/api/v1/instances'),
			await raw(sandbox.baseUrl, 'GET', '/api/v1/instances/inst_missing', { key: keys.workspace }),
			await raw(sandbox.baseUrl, 'GET', '/api/v1/links', { key: keys.workspace }),
			await raw(sandbox.baseUrl, 'POST', '/api/v1/links', {
				key: keys.shortLink,
				body: { url: 'not a url' },
			}),
		];
		expect(answers.map((answer) => answer.status)).toEqual([401, 404, 403, 400]);
		for (const answer of answers) {
			expect(errorValidator(answer.body)).toBeNull();
			expect((answer.body as { error: { requestId: string } }).error.requestId).toBe(
				answer.headers['x-request-id'],
			);
		}
	});
});
