/**
 * Error mapping, the one place where anything thrown becomes the error n8n shows: it never throws itself.
 *
 * Error mapping with n8n's errors from another copy of n8n-workflow: in a real n8n the package may resolve a
 * different copy than the one that raised the error (docs/n8n-findings.md), so `instanceof` cannot be trusted.
 * A second copy is loaded here with jest's module isolation, which gives it classes of its own.
 */
import nock from 'nock';
import { NodeApiError, NodeOperationError, type INode } from 'n8n-workflow';

import { errorJson, toNodeError } from '../../nodes/shared/errors';
import { BadRequestError } from '../../src/client';
import { runNode } from '../../dev/harness';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

const node: INode = {
	id: 'node-1',
	name: 'Multichannel',
	type: 'n8n-nodes-multichannel.multichannel',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function otherCopy(): typeof import('n8n-workflow') {
	let copy: typeof import('n8n-workflow') | undefined;
	jest.isolateModules(() => {
		copy = jest.requireActual<typeof import('n8n-workflow')>('n8n-workflow');
	});
	return copy as typeof import('n8n-workflow');
}

const context = { keyKind: 'workspace' as const, itemIndex: 0, secrets: ['mcw_secret_key_value'] };

it('loads a second copy whose classes differ (the situation under test)', () => {
	const copy = otherCopy();
	expect(copy.NodeOperationError).not.toBe(NodeOperationError);
	expect(new copy.NodeOperationError(node, 'x')).not.toBeInstanceOf(NodeOperationError);
});

it("keeps n8n's own input error from another copy as it is: its message once, its item, its description", () => {
	const copy = otherCopy();
	const raised = new copy.NodeOperationError(node, "The item has no binary field 'file'", {
		itemIndex: 0,
		description: 'Check the binary property name (mcw_secret_key_value)',
	});
	const mapped = toNodeError(node, raised, context);
	expect(mapped).toBe(raised);
	expect(mapped.message).toBe("The item has no binary field 'file'");
	expect(mapped.description).toBe('Check the binary property name ([redacted])');
	expect(mapped.context.itemIndex).toBe(0);
});

it("rebuilds n8n's HTTP-layer error from another copy without the request it carries", () => {
	const copy = otherCopy();
	const raised = new copy.NodeApiError(
		node,
		{ message: 'self-signed certificate', code: 'DEPTH_ZERO_SELF_SIGNED_CERT' },
		{ httpCode: 'DEPTH_ZERO_SELF_SIGNED_CERT', message: 'self-signed certificate' },
	);
	const mapped = toNodeError(node, raised, context);
	expect(mapped).toBeInstanceOf(NodeApiError);
	expect(mapped.message).toBe('Could not reach the Multichannel service');
	expect(errorJson(mapped)).toMatchObject({ details: { itemIndex: 0 } });
});

describe('mapping an error never throws, whatever was thrown', () => {
	const apiError = (details: unknown[]) =>
		new BadRequestError('The request is invalid', {
			status: 400,
			code: 'validation_failed',
			requestId: 'req_1',
			details,
		});

	it('keeps a 400 whose details quote a Bearer token, with the token redacted in the parsed details', () => {
		const mapped = toNodeError(
			node,
			apiError([{ field: 'body.to', message: 'header was "Bearer abc"' }, 'Bearer abc']),
			context,
		);
		expect(mapped).toBeInstanceOf(NodeApiError);
		expect(mapped.message).toContain('The request is invalid');
		expect(mapped.errorResponse?.details).toEqual([
			{ field: 'body.to', message: 'header was "Bearer [redacted]"' },
			'Bearer [redacted]',
		]);
		expect(JSON.stringify(errorJson(mapped))).not.toContain('abc');
	});

	const circular: Record<string, unknown> = { field: 'body.to' };
	circular.self = circular;
	const throwingGetter = {
		field: 'body.to',
		get message(): string {
			throw new Error('getter exploded');
		},
	};
	const hostileProxy = new Proxy(
		{},
		{
			get() {
				throw new Error('proxy exploded');
			},
			ownKeys() {
				throw new Error('proxy exploded');
			},
		},
	);

	it.each([
		['circular details', apiError([circular])],
		['details with a getter that throws', apiError([throwingGetter])],
		['details that are a throwing proxy', apiError([hostileProxy])],
		[
			'huge details',
			apiError(Array.from({ length: 20_000 }, (_, i) => `detail ${i} ${'x'.repeat(500)}`)),
		],
		['a string', 'plain text thrown, with mcw_secret_key_value'],
		['a number', 42],
		['null', null],
		['undefined', undefined],
		['a symbol', Symbol('thrown')],
		[
			'an object whose toString throws',
			{
				toString: () => {
					throw new Error('no');
				},
			},
		],
		['a throwing proxy', hostileProxy],
		[
			'an Error whose message getter throws',
			Object.defineProperty(new Error('x'), 'message', {
				get() {
					throw new Error('no');
				},
			}),
		],
	])('%s', (_label, thrown) => {
		let mapped: ReturnType<typeof toNodeError> | undefined;
		expect(() => {
			mapped = toNodeError(node, thrown, context);
		}).not.toThrow();
		expect(mapped).toBeDefined();
		const shown = mapped as ReturnType<typeof toNodeError>;
		expect(typeof shown.message).toBe('string');
		expect(shown.message.length).toBeGreaterThan(0);
		expect(`${shown.message} ${shown.description ?? ''}`.length).toBeLessThan(20_000);
		expect(JSON.stringify(errorJson(shown))).not.toContain('mcw_secret_key_value');
		expect(shown.context.itemIndex).toBe(0);
	});
});

describe('"Continue On Fail" with an error whose details quote a Bearer token', () => {
	beforeAll(() => nock.disableNetConnect());
	afterAll(() => {
		nock.cleanAll();
		nock.enableNetConnect();
	});

	it('outputs the error item instead of failing the run', async () => {
		nock('http://127.0.0.1:8787')
			.get('/api/v1/models/gpt-4o')
			.reply(400, {
				error: {
					code: 'validation_failed',
					message: 'The request is invalid',
					details: [{ field: 'modelId', message: 'saw "Bearer abc"' }],
				},
			});
		const result = await runNode(
			{
				type: 'n8n-nodes-multichannel.multichannel',
				name: 'Multichannel',
				parameters: {
					resource: 'model',
					operation: 'get',
					modelId: { __rl: true, mode: 'id', value: 'gpt-4o' },
				},
				onError: 'continueRegularOutput',
			},
			{ credentials: { multichannelApi: { apiKey: 'mcw_secret_key_value' } } },
		);
		expect(result.error).toBeUndefined();
		const [item] = result.json('Multichannel');
		expect(item.error).toContain('The request is invalid');
		expect(JSON.stringify(result.run.data)).not.toContain('Bearer abc');
	});
});
