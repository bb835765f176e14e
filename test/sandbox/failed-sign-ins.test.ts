import { raw, suiteSandbox } from '../support/sandbox';

/**
 * Requests with a missing or bad key are rate limited by client address (60 a minute), in a budget of their
 * own: past it they answer 429 with Retry-After, while a good key from the same address keeps working.
 */
describe('failed sign-ins', () => {
	const suite = suiteSandbox({ rateLimit: { limit: 1000, windowMs: 60_000 } });

	it('answers 429 with Retry-After past 60 bad keys a minute, never to a good key', async () => {
		const { sandbox, keys } = suite;
		const bad = { key: 'mcw_not-a-real-key' };
		for (let attempt = 0; attempt < 60; attempt++) {
			const answer = await raw(sandbox.baseUrl, 'GET', '/api/v1/instances', bad);
			expect([attempt, answer.status]).toEqual([attempt, 401]);
		}
		for (const [path, options] of [
			['/api/v1/instances', bad],
			['/api/v1/instances', {}],
			['/user/api/session', bad],
		] as const) {
			const answer = await raw(sandbox.baseUrl, 'GET', path, options);
			expect([path, answer.status]).toEqual([path, 429]);
			expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
			expect(answer.body).toMatchObject({ error: { code: 'rate_limited' } });
		}
		const good = await raw(sandbox.baseUrl, 'GET', '/api/v1/instances', { key: keys.workspace });
		expect(good.status).toBe(200);
		const console = await raw(sandbox.baseUrl, 'GET', '/user/api/session', { key: keys.workspace });
		expect(console.status).toBe(200);
	});
});

/**
 * Signed requests (claims signed with a webhook's secret, signed file URLs) that fail their signature count in
 * the same budget: guessing a signature is no cheaper than guessing a key.
 */
describe('failed signatures', () => {
	const suite = suiteSandbox({ rateLimit: { limit: 1000, windowMs: 60_000 } });

	it('answers 429 past 60 bad signed claims and file URLs a minute from one address', async () => {
		const { sandbox, keys } = suite;
		const created = await raw(sandbox.baseUrl, 'POST', '/api/v1/automation/webhooks', {
			key: keys.automation,
			body: { url: 'http://127.0.0.1:9/hook', events: ['*'] },
		});
		expect(created.status).toBe(201);
		const hookId = (created.body as { id: string }).id;
		const body = JSON.stringify({ eventId: 'evt_0123456789abcdef' });
		const badClaim = () =>
			raw(sandbox.baseUrl, 'POST', `/api/v1/automation/webhooks/${hookId}/signed-claims`, {
				body,
				headers: {
					'x-multichannel-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
				},
			});
		const badFile = () =>
			raw(
				sandbox.baseUrl,
				'GET',
				`/api/v1/signed-media/msg_0123456789abcdef.9999999999.${'0'.repeat(64)}`,
			);
		for (let attempt = 0; attempt < 60; attempt++) {
			const answer = await (attempt % 2 === 0 ? badClaim() : badFile());
			expect([attempt, answer.status]).toEqual([attempt, 401]);
		}
		for (const answer of [await badClaim(), await badFile()]) {
			expect(answer.status).toBe(429);
			expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
			expect(answer.body).toMatchObject({ error: { code: 'rate_limited' } });
		}
		const good = await raw(sandbox.baseUrl, 'GET', '/api/v1/instances', { key: keys.workspace });
		expect(good.status).toBe(200);
	});
});
