import {
	raw,
	sandboxWithReceiver,
	startReceiver,
	waitFor,
	type SandboxWithReceiver,
} from '../support/sandbox';

const IPHONE_SAFARI =
	'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const DESKTOP_FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

describe('sandbox short links', () => {
	const suite = sandboxWithReceiver();
	let client: SandboxWithReceiver['clients']['shortLink'];
	beforeAll(() => {
		client = suite.clients.shortLink;
	});

	it('redirects a short URL with 302, records the click and emits link.clicked', async () => {
		const link = await client.links.create({
			body: {
				url: 'https://example.com/landing?utm=1',
				code: 'spring-sale',
				title: 'Spring',
				tags: ['promo'],
			},
		});
		expect(link.shortUrl).toBe(`${suite.sandbox.baseUrl}/spring-sale`);
		const webhook = await client.webhooks.create({
			body: {
				url: `${suite.receiver.url}/links`,
				events: ['link.clicked'],
				filters: { linkIds: [link.id] },
			},
		});
		suite.receiver.secrets.push(webhook.secret);

		const visit = await raw(suite.sandbox.baseUrl, 'GET', '/spring-sale', {
			headers: {
				'user-agent': IPHONE_SAFARI,
				referer: 'https://news.example.org/post',
				'cf-ipcountry': 'de',
			},
		});
		expect(visit.status).toBe(302);
		expect(visit.headers.location).toBe('https://example.com/landing?utm=1');
		expect(visit.headers['x-request-id']).toMatch(/^req_/);

		const delivery = await suite.receiver.waitForEvent('link.clicked');
		expect(delivery.signature.valid).toBe(true);
		expect(delivery.event.data).toMatchObject({
			link: { id: link.id, code: 'spring-sale', clickCount: 1 },
			click: {
				linkId: link.id,
				referrer: 'https://news.example.org/post',
				country: 'DE',
				device: 'mobile',
				browser: 'Safari',
				bot: false,
			},
		});

		// A HEAD (a link preview) is answered but not counted.
		const head = await raw(suite.sandbox.baseUrl, 'HEAD', '/spring-sale', {
			headers: { 'user-agent': DESKTOP_FIREFOX },
		});
		expect([head.status, head.headers.location]).toEqual([
			302,
			'https://example.com/landing?utm=1',
		]);
		await raw(suite.sandbox.baseUrl, 'GET', '/spring-sale', {
			headers: { 'user-agent': DESKTOP_FIREFOX },
		});
		await raw(suite.sandbox.baseUrl, 'GET', '/spring-sale', {
			headers: { 'user-agent': GOOGLEBOT },
		});
		const people = await client.clicks.list({ linkId: link.id });
		expect(people.data.map((click) => [click.device, click.browser, click.country])).toEqual([
			['desktop', 'Firefox', null],
			['mobile', 'Safari', 'DE'],
		]);
		const everyone = await client.clicks.list({ linkId: link.id, query: { includeBots: true } });
		expect(everyone.data[0]).toMatchObject({ bot: true, device: 'bot' });
		expect(everyone.data).toHaveLength(3);
		// Bots are recorded but not counted.
		await expect(client.links.get({ linkId: link.id })).resolves.toMatchObject({ clickCount: 2 });
	});

	it('answers 410 for an expired link and 404 for an unknown code', async () => {
		const link = await client.links.create({ body: { url: 'https://example.com/soon-gone' } });
		const code = link.code as string;
		expect((await raw(suite.sandbox.baseUrl, 'GET', `/${code}`)).status).toBe(302);
		await client.links.update({
			linkId: link.id,
			body: { expiresAt: new Date(Date.now() - 1000).toISOString() },
		});
		const expired = await raw(suite.sandbox.baseUrl, 'GET', `/${code}`);
		expect(expired.status).toBe(410);
		expect(expired.body).toMatchObject({ error: { code: 'link_expired' } });
		expect((await raw(suite.sandbox.baseUrl, 'GET', '/no-such-code')).status).toBe(404);
		// The expired visit was not recorded.
		const clicks = await client.clicks.list({ linkId: link.id, query: { includeBots: true } });
		expect(clicks.data).toHaveLength(1);
	});

	it('keeps codes unique and away from the sandbox’s own paths', async () => {
		await client.links.create({ body: { url: 'https://example.com/a', code: 'taken' } });
		await expect(
			client.links.create({ body: { url: 'https://example.com/b', code: 'taken' } }),
		).rejects.toMatchObject({
			status: 409,
			code: 'code_taken',
		});
		await expect(
			client.links.create({ body: { url: 'https://example.com/c', code: 'sandbox' } }),
		).rejects.toMatchObject({
			status: 409,
		});
	});

	it('emits link.created, link.updated and link.deleted to a link webhook', async () => {
		const all = await startReceiver();
		try {
			const webhook = await client.webhooks.create({ body: { url: all.url, events: ['*'] } });
			all.secrets.push(webhook.secret);
			const link = await client.links.create({ body: { url: 'https://example.com/lifecycle' } });
			await client.links.update({ linkId: link.id, body: { title: 'Renamed' } });
			await client.links.delete({ linkId: link.id });
			await waitFor(() => all.received.length >= 3, 5000, 'three link events');
			expect(all.received.map((delivery) => delivery.event.type).sort()).toEqual([
				'link.created',
				'link.deleted',
				'link.updated',
			]);
			expect((await raw(suite.sandbox.baseUrl, 'GET', `/${link.code}`)).status).toBe(404);
			await expect(client.links.get({ linkId: link.id })).rejects.toMatchObject({ status: 404 });
		} finally {
			await all.close();
		}
	});
});
