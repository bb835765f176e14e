import nock from 'nock';

import { RequestValidationError, createWorkspaceClient } from '../../src/client';
import { fetchTransport } from '../../dev/transports/fetch';
import {
	mockService,
	AUTOMATION_KEY,
	BASE,
	clients,
	KEY,
	LINK_KEY,
	record,
	resetNock,
} from '../support/client';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

const message = {
	id: 'msg_1',
	status: 'sent',
	type: 'text',
	chatId: '+14155550123',
	extra: { kept: true },
};

beforeEach(resetNock);
afterAll(() => nock.enableNetConnect());

describe('requests on the wire', () => {
	it('sends a text message: URL, method, Bearer, Accept, Content-Type, Idempotency-Key and body', async () => {
		const { workspace } = clients();
		const seen = record(
			mockService().post('/api/v1/instances/inst%2F1/messages/text'),
			201,
			message,
		);

		const result = await workspace.messages.sendText({
			instanceId: 'inst/1',
			body: { to: '+14155550123', text: 'Hello' },
		});

		expect(seen).toHaveLength(1);
		expect(seen[0].method).toBe('POST');
		expect(seen[0].headers.authorization).toBe(`Bearer ${KEY}`);
		expect(seen[0].headers.accept).toBe('application/json');
		expect(seen[0].headers['content-type']).toBe('application/json');
		expect(seen[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
		expect(JSON.parse(seen[0].body)).toEqual({ to: '+14155550123', text: 'Hello' });
		// Lenient parsing: a field the contract does not know is kept.
		expect(result).toEqual(message);
	});

	it('uses the caller’s idempotency key when given one', async () => {
		const { workspace } = clients();
		const seen = record(mockService().post('/api/v1/instances/i1/messages/poll'), 201, message);
		await workspace.messages.sendPoll(
			{
				instanceId: 'i1',
				body: { to: '+14155550123', question: 'Lunch?', options: ['Yes', 'No'] },
			},
			{ idempotencyKey: 'order-42-poll' },
		);
		expect(seen[0].headers['idempotency-key']).toBe('order-42-poll');
	});

	it('sends no idempotency key on reads and non-creating writes', async () => {
		const { workspace } = clients();
		const get = record(mockService().get('/api/v1/instances/i1'), 200, {
			id: 'i1',
			status: 'connected',
		});
		const patch = record(mockService().patch('/api/v1/instances/i1/groups/g1%40g.us'), 200, {
			id: 'g1@g.us',
		});
		await workspace.instances.get({ instanceId: 'i1' });
		await workspace.groups.update({
			instanceId: 'i1',
			groupId: 'g1@g.us',
			body: { subject: 'New' },
		});
		expect(get[0].headers['idempotency-key']).toBeUndefined();
		expect(get[0].headers['content-type']).toBeUndefined();
		expect(patch[0].headers['idempotency-key']).toBeUndefined();
		expect(JSON.parse(patch[0].body)).toEqual({ subject: 'New' });
	});

	it('puts query parameters in the URL and leaves out the ones not given', async () => {
		const { workspace } = clients();
		const seen = record(
			mockService()
				.get('/api/v1/instances/i1/contacts')
				.query({ limit: '5', search: 'Ann', blocked: 'false' }),
			200,
			{ data: [], nextCursor: null },
		);
		await workspace.contacts.list({
			instanceId: 'i1',
			query: { limit: 5, search: 'Ann', blocked: false },
		});
		expect(seen).toHaveLength(1);
	});

	it.each([
		['http://multichannel.test'],
		['http://multichannel.test/'],
		['http://multichannel.test/api/v1'],
		['http://multichannel.test/api/v1/'],
	])('accepts the base URL %s', async (baseUrl) => {
		const client = createWorkspaceClient(fetchTransport(KEY), { baseUrl });
		const seen = record(mockService().get('/api/v1/models'), 200, {
			object: 'list',
			data: [{ id: 'gpt-x', object: 'model' }],
		});
		const models = await client.models.list();
		expect(models.data[0].id).toBe('gpt-x');
		expect(seen[0].path).toBe('/api/v1/models');
	});

	it('rejects a base URL that is not http(s)', () => {
		expect(() => createWorkspaceClient(fetchTransport(KEY), { baseUrl: 'ftp://x' })).toThrow(
			/not an http\(s\) URL/,
		);
	});

	it('uploads media as multipart with the exact fields and file bytes', async () => {
		const { workspace } = clients();
		const seen = record(mockService().post('/api/v1/instances/i1/messages/media/upload'), 201, {
			...message,
			type: 'image',
		});
		const data = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
		await workspace.messages.sendMediaUpload({
			instanceId: 'i1',
			body: { to: '+14155550123', mediaType: 'image', caption: 'Our menu' },
			file: { data, fileName: 'menu.png', mimeType: 'image/png' },
		});
		const contentType = String(seen[0].headers['content-type']);
		expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
		expect(seen[0].headers['idempotency-key']).toBeDefined();
		const boundary = contentType.split('boundary=')[1];
		// nock hands over a binary body as hex.
		const raw = Buffer.from(seen[0].body, 'hex');
		const text = raw.toString('latin1');
		expect(text).toContain(
			`--${boundary}\r\nContent-Disposition: form-data; name="to"\r\n\r\n+14155550123\r\n`,
		);
		expect(text).toContain('name="mediaType"\r\n\r\nimage\r\n');
		expect(text).toContain('name="caption"\r\n\r\nOur menu\r\n');
		expect(text).toContain('name="file"; filename="menu.png"\r\nContent-Type: image/png\r\n\r\n');
		expect(text.endsWith(`--${boundary}--\r\n`)).toBe(true);
		expect(raw.includes(Buffer.concat([Buffer.from('\r\n\r\n'), data, Buffer.from('\r\n')]))).toBe(
			true,
		);
	});

	it('answers 204 with undefined', async () => {
		const { workspace } = clients();
		const seen = record(mockService().delete('/api/v1/instances/i1/contacts/c1'), 204);
		await expect(
			workspace.contacts.delete({ instanceId: 'i1', contactId: 'c1' }),
		).resolves.toBeUndefined();
		expect(seen[0].method).toBe('DELETE');
	});

	it('reaches the short-link and automation surfaces with their own keys', async () => {
		const { shortLink, automation } = clients();
		const link = record(mockService().post('/api/v1/links'), 201, {
			id: 'lnk_1',
			code: 'spring',
			shortUrl: `${BASE}/spring`,
		});
		const event = record(mockService().post('/api/v1/automation/events'), 202, {
			id: 'evt_1',
			type: 'automation.order_paid',
		});
		await shortLink.links.create({
			body: { url: 'https://shop.example/spring', code: 'spring', tags: ['campaign'] },
		});
		await automation.events.publish({ body: { name: 'order_paid', payload: { orderId: 42 } } });
		expect(link[0].headers.authorization).toBe(`Bearer ${LINK_KEY}`);
		expect(JSON.parse(link[0].body)).toEqual({
			url: 'https://shop.example/spring',
			code: 'spring',
			tags: ['campaign'],
		});
		expect(event[0].headers.authorization).toBe(`Bearer ${AUTOMATION_KEY}`);
		expect(JSON.parse(event[0].body)).toEqual({ name: 'order_paid', payload: { orderId: 42 } });
	});
});

describe('validation before sending', () => {
	it('names each bad field and sends nothing', async () => {
		const { workspace } = clients();
		const scope = mockService().post('/api/v1/instances/i1/messages/text').reply(201, message);
		const error = await workspace.messages
			.sendText({ instanceId: 'i1', body: { to: '0041 79', text: '', colour: 'red' } as never })
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(RequestValidationError);
		const fields = (error as RequestValidationError).issues.map((issue) => issue.field);
		expect(fields).toEqual(expect.arrayContaining(['body.to', 'body.text', 'body']));
		expect((error as Error).message).toMatch(/body\.to: /);
		expect((error as Error).message).toMatch(/colour/);
		expect(scope.isDone()).toBe(false);
	});

	it('rejects a missing path parameter and an out-of-range limit', async () => {
		const { workspace } = clients();
		const error = (await workspace.contacts
			.list({ instanceId: '', query: { limit: 500 } })
			.catch((e: unknown) => e)) as RequestValidationError;
		expect(error.issues.map((issue) => issue.field)).toEqual(['instanceId', 'query.limit']);
	});

	it('requires the file of an upload', async () => {
		const { workspace } = clients();
		const error = (await workspace.messages
			.sendMediaUpload({
				instanceId: 'i1',
				body: { to: '+14155550123', mediaType: 'image' },
			} as never)
			.catch((e: unknown) => e)) as RequestValidationError;
		expect(error.issues).toEqual([{ field: 'file', message: 'a file (binary data) is required' }]);
	});
});

describe('lenient responses', () => {
	it('accepts an answer missing optional fields', async () => {
		const { workspace } = clients();
		mockService().get('/api/v1/instances/i1/groups/g1').reply(200, { id: 'g1' });
		await expect(workspace.groups.get({ instanceId: 'i1', groupId: 'g1' })).resolves.toEqual({
			id: 'g1',
		});
	});

	it('refuses an answer it cannot use, saying where', async () => {
		const { workspace } = clients();
		mockService().get('/api/v1/instances/i1').reply(200, { name: 'no id' });
		await expect(workspace.instances.get({ instanceId: 'i1' })).rejects.toThrow(
			/could not be read: id/,
		);
	});
});
