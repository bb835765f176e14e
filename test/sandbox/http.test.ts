import { ConnectionError, RateLimitError, ServerError } from '../../src/client';
import type { Sandbox } from '../../sandbox/server';
import { clientsFor, raw, startTestSandbox, type Exchange } from '../support/sandbox';

type Keys = NonNullable<Sandbox['keys']>;

describe('sandbox rate limits', () => {
	let sandbox: Sandbox;
	let keys: Keys;
	beforeAll(async () => {
		sandbox = await startTestSandbox({ rateLimit: { limit: 3, windowMs: 60_000 } });
		keys = sandbox.keys as Keys;
	});
	afterAll(() => sandbox.close());

	it('counts requests per key with the contract headers, then answers 429 with Retry-After', async () => {
		const client = clientsFor(sandbox.baseUrl, keys).workspace;
		const remaining: Array<number | undefined> = [];
		for (let i = 0; i < 3; i++) {
			await client.models.list();
			remaining.push(client.rateLimit.remaining);
		}
		expect(remaining).toEqual([2, 1, 0]);
		expect(client.rateLimit.limit).toBe(3);
		expect(client.rateLimit.reset).toBeGreaterThan(Date.now() / 1000);

		const limited = client.models.list();
		await expect(limited).rejects.toBeInstanceOf(RateLimitError);
		const error = (await limited.catch((failure: unknown) => failure)) as RateLimitError;
		expect(error.code).toBe('rate_limited');
		expect(error.retryAfterMs).toBeGreaterThan(0);
		expect(error.retryAfterMs).toBeLessThanOrEqual(60_000);

		const answer = await raw(sandbox.baseUrl, 'GET', '/api/v1/models', { key: keys.workspace });
		expect(answer.status).toBe(429);
		expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
		expect(answer.headers['x-ratelimit-remaining']).toBe('0');

		// Another key has its own budget.
		await expect(clientsFor(sandbox.baseUrl, keys).shortLink.links.list()).resolves.toMatchObject({
			data: [],
		});
	});
});

describe('sandbox HTTP behaviour', () => {
	let sandbox: Sandbox;
	let keys: Keys;
	let now = Date.now();
	const log: Exchange[] = [];
	let clients: ReturnType<typeof clientsFor>;

	beforeAll(async () => {
		sandbox = await startTestSandbox({ now: () => now, maxBodyBytes: 4096 });
		keys = sandbox.keys as Keys;
		clients = clientsFor(sandbox.baseUrl, keys, log);
	});
	afterAll(() => sandbox.close());

	it('replays the first answer to the same Idempotency-Key and body, and does nothing again', async () => {
		const body = { url: 'https://example.com/once', title: 'Once' };
		const first = await clients.shortLink.links.create({ body }, { idempotencyKey: 'create-once' });
		expect(log.at(-1)?.headers['idempotency-replayed']).toBeUndefined();
		const second = await clients.shortLink.links.create(
			{ body },
			{ idempotencyKey: 'create-once' },
		);
		expect(log.at(-1)?.status).toBe(201);
		expect(log.at(-1)?.headers['idempotency-replayed']).toBe('true');
		expect(second).toEqual(first);
		expect(sandbox.store.all('links')).toHaveLength(1);
		expect(sandbox.events.filter((event) => event.type === 'link.created')).toHaveLength(1);

		const reused = clients.shortLink.links.create(
			{ body: { url: 'https://example.com/other' } },
			{ idempotencyKey: 'create-once' },
		);
		await expect(reused).rejects.toMatchObject({ status: 409, code: 'idempotency_key_reused' });

		// Keys are per workspace: another workspace may use the same one.
		const other = clientsFor(sandbox.baseUrl, sandbox.createWorkspace().keys);
		const theirs = await other.shortLink.links.create({ body }, { idempotencyKey: 'create-once' });
		expect(theirs.id).not.toBe(first.id);

		// After 24 h the key is forgotten: the same request creates again.
		now += 24 * 60 * 60 * 1000 + 1000;
		const later = await clients.shortLink.links.create({ body }, { idempotencyKey: 'create-once' });
		expect(later.id).not.toBe(first.id);
	});

	it('rejects invalid input with 400 validation_failed naming each field', async () => {
		const instance = await clients.workspace.instances.create({ body: { name: 'validation' } });
		const bad = await raw(
			sandbox.baseUrl,
			'POST',
			`/api/v1/instances/${instance.id}/messages/text`,
			{
				key: keys.workspace,
				body: { to: '12345', text: '', extra: true },
			},
		);
		expect(bad.status).toBe(400);
		const error = (
			bad.body as { error: { code: string; details: Array<{ field: string }>; requestId: string } }
		).error;
		expect(error.code).toBe('validation_failed');
		expect(error.details.map((detail) => detail.field).sort()).toEqual([
			'body',
			'body.text',
			'body.to',
		]);
		expect(error.requestId).toBe(bad.headers['x-request-id']);

		for (const query of ['limit=0', 'limit=101', 'limit=abc', 'colour=red']) {
			const answer = await raw(sandbox.baseUrl, 'GET', `/api/v1/instances?${query}`, {
				key: keys.workspace,
			});
			expect([query, answer.status]).toEqual([query, 400]);
		}
		const json = await raw(sandbox.baseUrl, 'POST', '/api/v1/instances', {
			key: keys.workspace,
			body: '{"name":',
		});
		expect(json.status).toBe(400);
		expect(json.body).toMatchObject({ error: { code: 'invalid_json' } });
		const large = await raw(sandbox.baseUrl, 'POST', '/api/v1/instances', {
			key: keys.workspace,
			body: { name: 'x', description: 'y'.repeat(5000) },
		});
		expect(large.status).toBe(413);
	});

	it('pages lists with limit and cursor', async () => {
		const names = ['p1', 'p2', 'p3', 'p4', 'p5'];
		for (const name of names) await clients.workspace.instances.create({ body: { name } });
		const pages = [];
		for await (const page of clients.workspace.instances.list.pages({ query: { limit: 2 } }))
			pages.push(page);
		const all = pages.flatMap((page) => page.data.map((instance) => instance.name));
		expect(all.slice(-5)).toEqual(names);
		expect(pages.every((page) => page.data.length <= 2)).toBe(true);
		expect(pages.at(-1)?.nextCursor).toBeNull();
		expect(await clients.workspace.instances.list.all({}, { max: 3 })).toHaveLength(3);

		const badCursor = await raw(sandbox.baseUrl, 'GET', '/api/v1/instances?cursor=nonsense', {
			key: keys.workspace,
		});
		expect(badCursor.status).toBe(400);
		expect(badCursor.body).toMatchObject({ error: { code: 'invalid_cursor' } });
	});

	it('puts X-Request-Id on every answer and answers unknown paths and methods', async () => {
		const ok = await raw(sandbox.baseUrl, 'GET', '/api/v1/models', { key: keys.workspace });
		const missing = await raw(sandbox.baseUrl, 'GET', '/api/v1/nothing-here', {
			key: keys.workspace,
		});
		const method = await raw(sandbox.baseUrl, 'PUT', '/api/v1/instances', { key: keys.workspace });
		const ids = [ok, missing, method].map((answer) => answer.headers['x-request-id']);
		expect(ids.every((id) => /^req_[0-9a-f]{16}$/.test(id ?? ''))).toBe(true);
		expect(new Set(ids).size).toBe(3);
		expect(missing.status).toBe(404);
		expect(method.status).toBe(405);
		expect(method.headers.allow).toBe('GET, POST');
	});

	it('injects faults on demand: 429, 503, dropped connections and latency, without side effects', async () => {
		const before = sandbox.store.all('instances').length;
		try {
			sandbox.setFaults({ rateLimited: 1 });
			const limited = await raw(sandbox.baseUrl, 'POST', '/api/v1/instances', {
				key: keys.workspace,
				body: { name: 'fault' },
			});
			expect([limited.status, limited.headers['retry-after']]).toEqual([429, '1']);

			sandbox.setFaults({ unavailable: 1 });
			await expect(
				clients.workspace.instances.create({ body: { name: 'fault' } }),
			).rejects.toBeInstanceOf(ServerError);

			sandbox.setFaults({ dropped: 1 });
			await expect(clients.workspace.models.list()).rejects.toBeInstanceOf(ConnectionError);

			sandbox.setFaults({ delayed: 1, delayMs: 150 });
			const started = Date.now();
			await clients.workspace.models.list();
			expect(Date.now() - started).toBeGreaterThanOrEqual(140);

			// A share: with draws 0.1 then 0.9 against a 50 % share, one of two requests fails.
			const draws = [0.1, 0.9];
			sandbox.setFaults({ unavailable: 0.5, random: () => draws.shift() ?? 1 });
			await expect(clients.workspace.models.list()).rejects.toMatchObject({ status: 503 });
			await expect(clients.workspace.models.list()).resolves.toMatchObject({ object: 'list' });
		} finally {
			sandbox.setFaults({});
		}
		expect(sandbox.store.all('instances')).toHaveLength(before);
	});
});

describe('sandbox idempotency records', () => {
	it('are dropped after 24 h in memory too (no data file), not kept for ever', async () => {
		let now = Date.now();
		const sandbox = await startTestSandbox({ now: () => now });
		try {
			const links = clientsFor(sandbox.baseUrl, sandbox.keys as Keys).shortLink.links;
			for (let day = 0; day < 3; day++) {
				await links.create(
					{ body: { url: `https://example.com/day-${day}` } },
					{ idempotencyKey: `day-${day}` },
				);
				now += 24 * 60 * 60 * 1000 + 1000;
			}
			await links.create(
				{ body: { url: 'https://example.com/today' } },
				{ idempotencyKey: 'today' },
			);
			expect([...sandbox.store.idempotency.keys()].map((key) => key.split(':').at(-1))).toEqual([
				'today',
			]);
		} finally {
			await sandbox.close();
		}
	});
});

describe('sandbox latency option', () => {
	it('adds a fixed delay to every API request', async () => {
		const sandbox = await startTestSandbox({ latencyMs: 120 });
		try {
			const client = clientsFor(sandbox.baseUrl, sandbox.keys as Keys).workspace;
			const started = Date.now();
			await client.models.list();
			expect(Date.now() - started).toBeGreaterThanOrEqual(110);
		} finally {
			await sandbox.close();
		}
	});
});
