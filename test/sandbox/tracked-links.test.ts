import { findUrls } from '../../sandbox/links/tracked-links';
import { PHONE_BROWSER, raw, sandboxWithReceiver } from '../support/sandbox';

describe('which URLs of a text are tracked', () => {
	const urls = (text: string) => findUrls(text).map((found) => found.url);

	it('takes http and https URLs, and leaves the punctuation that ends a sentence', () => {
		expect(
			urls(
				'Sale: https://shop.example/sale. Also http://a.example/x?y=1&z=2, and (see https://b.example/c)! ' +
					'Or "https://c.example/q"? HTTPS://UPPER.example/ok; end https://d.example/e...',
			),
		).toEqual([
			'https://shop.example/sale',
			'http://a.example/x?y=1&z=2',
			'https://b.example/c',
			'https://c.example/q',
			'HTTPS://UPPER.example/ok',
			'https://d.example/e',
		]);
	});

	it('keeps brackets a URL opened itself, fragments and ports', () => {
		expect(
			urls(
				'https://en.wikipedia.org/wiki/Mercury_(planet). https://x.example:8443/a#top, [https://y.example/b]',
			),
		).toEqual([
			'https://en.wikipedia.org/wiki/Mercury_(planet)',
			'https://x.example:8443/a#top',
			'https://y.example/b',
		]);
	});

	it('ignores other schemes, bare domains and a scheme with no host', () => {
		expect(
			urls('ftp://files.example/a mailto:ana@example.com www.example.com https:// http://'),
		).toEqual([]);
	});
});

describe('sandbox tracked links', () => {
	const suite = sandboxWithReceiver();
	let instanceId: string;

	beforeAll(async () => {
		const instance = await suite.clients.workspace.instances.create({ body: { name: 'Tracked' } });
		await suite.clients.workspace.instances.connect({
			instanceId: instance.id,
			body: { method: 'qr' },
		});
		const scan = await raw(
			suite.sandbox.baseUrl,
			'POST',
			`/sandbox/instances/${instance.id}/scan`,
			{
				key: suite.keys.workspace,
				body: {},
			},
		);
		expect(scan.status).toBe(200);
		instanceId = instance.id;
		const webhook = await suite.clients.shortLink.webhooks.create({
			body: { url: `${suite.receiver.url}/links`, events: ['link.clicked'] },
		});
		suite.receiver.secrets.push(webhook.secret);
	});

	it('replaces each URL of a text with a short link of the workspace, tagged with the message', async () => {
		const message = await suite.clients.workspace.messages.sendText({
			instanceId,
			body: {
				to: '+14155550123',
				text: 'Our sale: https://shop.example/sale. Again: https://shop.example/sale! Map: https://maps.example/x',
				trackLinks: true,
			},
		});
		const tracked = message.trackedLinks ?? [];
		expect(tracked.map((link) => link.url)).toEqual([
			'https://shop.example/sale',
			'https://maps.example/x',
		]);
		const [sale, map] = tracked;
		expect(sale.shortUrl).toMatch(new RegExp(`^${suite.sandbox.baseUrl}/[A-Za-z0-9]{7}$`));
		// The text actually sent, as stored and as a GET shows it; the punctuation stays where it was.
		const sent = `Our sale: ${sale.shortUrl}. Again: ${sale.shortUrl}! Map: ${map.shortUrl}`;
		expect(message.content).toEqual({ text: sent });
		const stored = await suite.clients.workspace.messages.get({
			instanceId,
			messageId: message.id,
		});
		expect(stored.content).toEqual({ text: sent });
		expect(stored.trackedLinks).toEqual(tracked);

		// The links belong to the workspace's short-link surface, tagged with the message id.
		const links = await suite.clients.shortLink.links.list.all({ query: { tag: message.id } });
		expect(links.map((link) => link.id).sort()).toEqual(tracked.map((link) => link.linkId).sort());
		const link = await suite.clients.shortLink.links.get({ linkId: sale.linkId as string });
		expect(link).toMatchObject({
			url: 'https://shop.example/sale',
			shortUrl: sale.shortUrl,
			tags: [message.id],
			messageId: message.id,
			recipient: '+14155550123',
		});
	});

	it('a click on a tracked link redirects and names the message and the recipient', async () => {
		const message = await suite.clients.workspace.messages.sendText({
			instanceId,
			body: { to: '+442071838750', text: 'Read https://blog.example/post', trackLinks: true },
		});
		const [tracked] = message.trackedLinks ?? [];
		const code = new URL(tracked.shortUrl).pathname.slice(1);

		const visit = await raw(suite.sandbox.baseUrl, 'GET', `/${code}`, {
			headers: { 'user-agent': PHONE_BROWSER },
		});
		expect(visit.status).toBe(302);
		expect(visit.headers.location).toBe('https://blog.example/post');

		const delivery = await suite.receiver.waitForEvent(
			'link.clicked',
			(received) => (received.event.data.link as { id: string }).id === tracked.linkId,
		);
		expect(delivery.event.data.click).toMatchObject({
			linkId: tracked.linkId,
			messageId: message.id,
			recipient: '+442071838750',
		});
		expect(delivery.event.data.link).toMatchObject({
			messageId: message.id,
			recipient: '+442071838750',
		});
		const clicks = await suite.clients.shortLink.clicks.list({ linkId: tracked.linkId as string });
		expect(clicks.data[0]).toMatchObject({ messageId: message.id, recipient: '+442071838750' });
	});

	it('tracks the caption of a media message, by URL and uploaded', async () => {
		const byUrl = await suite.clients.workspace.messages.sendMedia({
			instanceId,
			body: {
				to: '+14155550123',
				mediaType: 'image',
				url: 'https://cdn.example/menu.png',
				caption: 'Menu at https://menu.example/today',
				trackLinks: true,
			},
		});
		expect(byUrl.content?.url).toBe('https://cdn.example/menu.png');
		expect(byUrl.trackedLinks?.map((link) => link.url)).toEqual(['https://menu.example/today']);
		expect(byUrl.content?.caption).toBe(`Menu at ${byUrl.trackedLinks?.[0].shortUrl}`);

		// Multipart: the flag travels as a form field.
		const uploaded = await suite.clients.workspace.messages.sendMediaUpload({
			instanceId,
			body: {
				to: '+14155550123',
				mediaType: 'document',
				caption: 'Terms: https://terms.example/v2',
				trackLinks: true,
			},
			file: { data: Buffer.from('%PDF-1.4'), fileName: 'terms.pdf', mimeType: 'application/pdf' },
		});
		expect(uploaded.content?.caption).toBe(`Terms: ${uploaded.trackedLinks?.[0].shortUrl}`);
	});

	it('tracks the body of a message with reply buttons, within its own limit', async () => {
		const buttons = await suite.clients.workspace.messages.sendButtons({
			instanceId,
			body: {
				to: '+14155550123',
				text: 'Shall we book https://venue.example/hall?',
				buttons: [{ id: 'yes', title: 'Yes' }],
				trackLinks: true,
			},
		});
		const [venue] = buttons.trackedLinks ?? [];
		expect(venue.url).toBe('https://venue.example/hall');
		expect(buttons.content).toMatchObject({ text: `Shall we book ${venue.shortUrl}?` });

		const tooLong = await raw(
			suite.sandbox.baseUrl,
			'POST',
			`/api/v1/instances/${instanceId}/messages/buttons`,
			{
				key: suite.keys.workspace,
				body: {
					to: '+14155550123',
					text: `${'x'.repeat(1010)} https://a.b`,
					buttons: [{ id: 'yes', title: 'Yes' }],
					trackLinks: true,
				},
			},
		);
		expect(tooLong.status).toBe(400);
		expect(tooLong.body).toMatchObject({
			error: {
				details: [{ field: 'body.text', message: 'too long with tracked links (max 1024)' }],
			},
		});
	});

	it('leaves a text alone without trackLinks, or with no URL in it', async () => {
		const text = 'See https://plain.example/x';
		const untracked = await suite.clients.workspace.messages.sendText({
			instanceId,
			body: { to: '+14155550123', text },
		});
		expect(untracked.content).toEqual({ text });
		expect(untracked.trackedLinks).toBeUndefined();
		const noUrl = await suite.clients.workspace.messages.sendText({
			instanceId,
			body: { to: '+14155550123', text: 'No link here', trackLinks: true },
		});
		expect(noUrl.content).toEqual({ text: 'No link here' });
		expect(noUrl.trackedLinks).toEqual([]);
	});

	it('refuses a text that tracking would make too long, and creates no link', async () => {
		const before = (await suite.clients.shortLink.links.list.all({})).length;
		const text = `${'x'.repeat(4080)} https://a.b`;
		const answer = await raw(
			suite.sandbox.baseUrl,
			'POST',
			`/api/v1/instances/${instanceId}/messages/text`,
			{
				key: suite.keys.workspace,
				body: { to: '+14155550123', text, trackLinks: true },
			},
		);
		expect(answer.status).toBe(400);
		expect(answer.body).toMatchObject({
			error: {
				code: 'validation_failed',
				details: [{ field: 'body.text', message: 'too long with tracked links (max 4096)' }],
			},
		});
		expect((await suite.clients.shortLink.links.list.all({})).length).toBe(before);
	});

	it('a send repeated under its idempotency key makes no new links', async () => {
		const send = () =>
			raw(suite.sandbox.baseUrl, 'POST', `/api/v1/instances/${instanceId}/messages/text`, {
				key: suite.keys.workspace,
				headers: { 'idempotency-key': 'tracked-once' },
				body: { to: '+14155550123', text: 'Once: https://once.example', trackLinks: true },
			});
		const first = await send();
		const again = await send();
		expect(again.body).toEqual(first.body);
		const messageId = (first.body as { id: string }).id;
		expect(
			await suite.clients.shortLink.links.list.all({ query: { tag: messageId } }),
		).toHaveLength(1);
	});
});
