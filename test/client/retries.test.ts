import nock from 'nock';

import { ConnectionError, RateLimitError, ServerError, TimeoutError } from '../../src/client';
import { startScriptedServer } from '../support/scripted-server';
import { mockService, clients, record, resetNock } from '../support/client';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

beforeEach(() => {
	resetNock();
	nock.enableNetConnect('127.0.0.1');
});
afterAll(() => nock.enableNetConnect());

const message = { id: 'msg_1', status: 'sent' };
const rateLimited = { error: { code: 'rate_limited', message: 'Slow down' } };
const send = { instanceId: 'i1', body: { to: '+14155550123', text: 'Hi' } };

describe('retries', () => {
	it('retries 429, 502, 503 and 504 with exponential backoff and succeeds', async () => {
		const { workspace, waits, retries } = clients({ retryBaseDelayMs: 100, maxRetries: 4 });
		mockService().get('/api/v1/models').reply(429, rateLimited);
		mockService().get('/api/v1/models').reply(502);
		mockService().get('/api/v1/models').reply(503);
		mockService().get('/api/v1/models').reply(504);
		mockService().get('/api/v1/models').reply(200, { data: [] });
		await expect(workspace.models.list()).resolves.toEqual({ data: [] });
		// random() = 0.5 → half fixed + a quarter: 0.75 × 100·2^n.
		expect(waits).toEqual([75, 150, 300, 600]);
		expect(retries.map((r) => r.reason)).toEqual(['HTTP 429', 'HTTP 502', 'HTTP 503', 'HTTP 504']);
	});

	it('keeps the jitter between half and all of each step, capped by maxRetryDelayMs', async () => {
		const low = clients({ retryBaseDelayMs: 1000, random: () => 0, maxRetryDelayMs: 3000 });
		const high = clients({ retryBaseDelayMs: 1000, random: () => 0.999999, maxRetryDelayMs: 3000 });
		for (const { workspace } of [low, high]) {
			mockService().get('/api/v1/models').times(3).reply(503);
			mockService().get('/api/v1/models').reply(200, { data: [] });
			await workspace.models.list();
		}
		expect(low.waits).toEqual([500, 1000, 1500]);
		expect(high.waits).toEqual([1000, 2000, 3000]);
	});

	it('waits what Retry-After says, in seconds or as an HTTP date', async () => {
		const { workspace, waits } = clients();
		mockService().get('/api/v1/models').reply(429, rateLimited, { 'Retry-After': '2' });
		mockService()
			.get('/api/v1/models')
			.reply(429, rateLimited, { 'Retry-After': new Date(Date.now() + 5000).toUTCString() });
		mockService().get('/api/v1/models').reply(200, { data: [] });
		await workspace.models.list();
		expect(waits[0]).toBe(2000);
		// An HTTP date has a one-second resolution.
		expect(waits[1]).toBeGreaterThan(3500);
		expect(waits[1]).toBeLessThanOrEqual(5000);
	});

	it('gives up after maxRetries and throws the last error with its wait', async () => {
		const { workspace, waits } = clients({ maxRetries: 2 });
		const scope = mockService()
			.get('/api/v1/models')
			.times(3)
			.reply(429, rateLimited, { 'Retry-After': '1' });
		const error = (await workspace.models.list().catch((e: unknown) => e)) as RateLimitError;
		expect(error).toBeInstanceOf(RateLimitError);
		expect(error.retryAfterMs).toBe(1000);
		expect(waits).toEqual([1000, 1000]);
		expect(scope.isDone()).toBe(true);
	});

	it('does not wait for a Retry-After longer than maxRetryDelayMs: it reports it', async () => {
		const { workspace, waits } = clients({ maxRetryDelayMs: 10_000 });
		mockService().get('/api/v1/models').reply(429, rateLimited, { 'Retry-After': '3600' });
		const error = (await workspace.models.list().catch((e: unknown) => e)) as RateLimitError;
		expect(error.retryAfterMs).toBe(3_600_000);
		expect(waits).toEqual([]);
	});

	it('does not retry other errors', async () => {
		const { workspace, waits } = clients();
		mockService()
			.get('/api/v1/models')
			.reply(500, { error: { code: 'internal_error', message: 'Boom' } });
		await expect(workspace.models.list()).rejects.toBeInstanceOf(ServerError);
		mockService()
			.get('/api/v1/models')
			.reply(400, { error: { code: 'validation_failed', message: 'Bad' } });
		await expect(workspace.models.list()).rejects.toThrow('Bad');
		expect(waits).toEqual([]);
	});

	it('retries a connection reset and a timeout', async () => {
		const server = await startScriptedServer([
			'reset',
			'hang',
			{ status: 200, body: { data: [{ id: 'm1' }] } },
		]);
		const { workspace, retries } = clients({ baseUrl: server.baseUrl, timeoutMs: 300 });
		try {
			await expect(workspace.models.list()).resolves.toEqual({ data: [{ id: 'm1' }] });
			expect(retries.map((r) => r.reason)).toEqual(['connection_error', 'timeout']);
			expect(server.requests).toHaveLength(3);
		} finally {
			await server.close();
		}
	});

	it('throws ConnectionError / TimeoutError once retries are spent', async () => {
		const server = await startScriptedServer(['reset', 'reset', 'hang', 'hang']);
		const { workspace } = clients({ baseUrl: server.baseUrl, maxRetries: 1, timeoutMs: 200 });
		try {
			await expect(workspace.models.list()).rejects.toBeInstanceOf(ConnectionError);
			await expect(workspace.models.list()).rejects.toBeInstanceOf(TimeoutError);
			expect(server.requests).toHaveLength(4);
		} finally {
			await server.close();
		}
	});
});

describe('a deadline (CallOptions.deadline)', () => {
	it('does not wait for a Retry-After that would end past it: the 429 is thrown at once', async () => {
		const { workspace, waits } = clients();
		const scope = mockService()
			.get('/api/v1/models')
			.reply(429, rateLimited, { 'Retry-After': '20' });
		const spare = mockService().get('/api/v1/models').reply(200, { data: [] });
		const error = (await workspace.models
			.list(undefined, { deadline: Date.now() + 7000 })
			.catch((e: unknown) => e)) as RateLimitError;
		expect(error).toBeInstanceOf(RateLimitError);
		expect(error.retryAfterMs).toBe(20_000);
		expect(waits).toEqual([]);
		expect(scope.isDone()).toBe(true);
		expect(spare.isDone()).toBe(false);
	});

	it('waits and retries within it', async () => {
		const { workspace, waits } = clients();
		mockService().get('/api/v1/models').reply(429, rateLimited, { 'Retry-After': '2' });
		mockService().get('/api/v1/models').reply(200, { data: [] });
		await expect(
			workspace.models.list(undefined, { deadline: Date.now() + 7000 }),
		).resolves.toEqual({ data: [] });
		expect(waits).toEqual([2000]);
	});

	it('cuts the timeout of an attempt to the time left, and sends nothing once it has passed', async () => {
		const server = await startScriptedServer(['hang', { status: 200, body: { data: [] } }]);
		const { workspace } = clients({ baseUrl: server.baseUrl, timeoutMs: 10_000 });
		try {
			const started = Date.now();
			await expect(
				workspace.models.list(undefined, { deadline: started + 300 }),
			).rejects.toBeInstanceOf(TimeoutError);
			expect(Date.now() - started).toBeLessThan(2000);
			expect(server.requests).toHaveLength(1);

			await expect(
				workspace.models.list(undefined, { deadline: Date.now() - 1 }),
			).rejects.toThrow('No time was left');
			expect(server.requests).toHaveLength(1);
		} finally {
			await server.close();
		}
	});
});

describe('creating writes and idempotency keys', () => {
	it('retries a send under one idempotency key, the same on every attempt', async () => {
		const { workspace } = clients();
		const first = record(mockService().post('/api/v1/instances/i1/messages/text'), 503);
		const second = record(
			mockService().post('/api/v1/instances/i1/messages/text'),
			429,
			rateLimited,
			{
				'Retry-After': '0',
			},
		);
		const third = record(mockService().post('/api/v1/instances/i1/messages/text'), 201, message);
		await expect(workspace.messages.sendText(send)).resolves.toEqual(message);
		const keys = [first, second, third].map((seen) => seen[0].headers['idempotency-key']);
		expect(keys[0]).toBeDefined();
		expect(new Set(keys).size).toBe(1);
		expect(third[0].body).toBe(first[0].body);
	});

	it('uses a new key for each logical call', async () => {
		const { workspace } = clients();
		const a = record(mockService().post('/api/v1/instances/i1/messages/text'), 201, message);
		const b = record(mockService().post('/api/v1/instances/i1/messages/text'), 201, message);
		await workspace.messages.sendText(send);
		await workspace.messages.sendText(send);
		expect(a[0].headers['idempotency-key']).not.toBe(b[0].headers['idempotency-key']);
	});

	it('never retries a creating write sent without an idempotency key', async () => {
		const { workspace, waits } = clients();
		const seen = record(mockService().post('/api/v1/instances/i1/messages/text'), 503);
		const spare = mockService().post('/api/v1/instances/i1/messages/text').reply(201, message);
		await expect(
			workspace.messages.sendText(send, { idempotencyKey: null }),
		).rejects.toBeInstanceOf(ServerError);
		expect(seen).toHaveLength(1);
		expect(seen[0].headers['idempotency-key']).toBeUndefined();
		expect(spare.isDone()).toBe(false);
		expect(waits).toEqual([]);
	});

	it('never resends a creating write without a key after a connection reset', async () => {
		const server = await startScriptedServer(['reset', { status: 201, body: message }]);
		const { workspace } = clients({ baseUrl: server.baseUrl });
		try {
			await expect(
				workspace.messages.sendText(send, { idempotencyKey: null }),
			).rejects.toBeInstanceOf(ConnectionError);
			expect(server.requests).toHaveLength(1);
		} finally {
			await server.close();
		}
	});

	it('retries non-creating writes (idempotent by nature) without a key', async () => {
		const { workspace } = clients();
		mockService().post('/api/v1/instances/i1/messages/m1/read').reply(503);
		const seen = record(mockService().post('/api/v1/instances/i1/messages/m1/read'), 200, {
			id: 'm1',
			status: 'read',
		});
		await workspace.messages.markRead({ instanceId: 'i1', messageId: 'm1' });
		expect(seen).toHaveLength(1);
		expect(seen[0].headers['idempotency-key']).toBeUndefined();
	});
});
