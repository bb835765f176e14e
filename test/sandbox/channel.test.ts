import { ConflictError, NotFoundError } from '../../src/client';
import {
	raw,
	receiveAllWorkspaceEvents,
	sandboxWithReceiver,
	startReceiver,
	waitFor,
	type SandboxWithReceiver,
} from '../support/sandbox';

describe('sandbox channel simulation', () => {
	const suite = sandboxWithReceiver();
	let client: SandboxWithReceiver['clients']['workspace'];

	const sandboxCall = (path: string, body: unknown = {}) =>
		raw(suite.sandbox.baseUrl, 'POST', path, { key: suite.keys.workspace, body });

	/** An instance taken through create → connect → scan. */
	async function connectedInstance(name: string, phoneNumber?: string) {
		const instance = await client.instances.create({ body: { name } });
		await client.instances.connect({ instanceId: instance.id, body: { method: 'qr' } });
		const scan = await sandboxCall(
			`/sandbox/instances/${instance.id}/scan`,
			phoneNumber ? { phoneNumber } : {},
		);
		expect(scan.status).toBe(200);
		return instance;
	}

	beforeAll(async () => {
		client = suite.clients.workspace;
		const webhook = await receiveAllWorkspaceEvents(suite);
		expect(webhook.secret).toMatch(/^whsec_/);
	});

	it('connects an instance by QR: created → connecting (QR) → scanned → connected, with events', async () => {
		const instance = await client.instances.create({ body: { name: 'Sales line' } });
		expect(instance.status).toBe('created');

		const connection = await client.instances.connect({ instanceId: instance.id, body: {} });
		expect(connection).toMatchObject({
			instanceId: instance.id,
			status: 'connecting',
			method: 'qr',
			pairingCode: null,
		});
		expect(connection.qr?.code).toMatch(/^2@/);
		expect(connection.qr?.imageDataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
		const qrEvent = await suite.receiver.waitForEvent(
			'instance.qr_updated',
			(delivery) => delivery.event.data.instanceId === instance.id,
		);
		expect(qrEvent.signature.valid).toBe(true);

		// Not connected yet: sending fails with a clear 409.
		const early = client.messages.sendText({
			instanceId: instance.id,
			body: { to: '+14155550123', text: 'too early' },
		});
		await expect(early).rejects.toBeInstanceOf(ConflictError);
		await expect(early).rejects.toMatchObject({ code: 'instance_not_connected' });
		await expect(early).rejects.toThrow(/not connected \(status: connecting\).*scan the QR code/);

		const scan = await sandboxCall(`/sandbox/instances/${instance.id}/scan`, {
			phoneNumber: '+14155550100',
		});
		expect(scan.body).toMatchObject({
			id: instance.id,
			status: 'connected',
			phoneNumber: '+14155550100',
		});
		const connected = await suite.receiver.waitForEvent(
			'instance.connected',
			(delivery) => delivery.event.data.id === instance.id,
		);
		expect(connected.event).toMatchObject({
			type: 'instance.connected',
			workspaceId: suite.sandbox.workspaceId,
			data: { status: 'connected' },
		});
		expect(connected.headers['x-multichannel-event-id']).toBe(connected.event.id);
		expect(connected.attempt).toBe(1);
		await expect(
			client.instances.getConnectionState({ instanceId: instance.id }),
		).resolves.toMatchObject({
			state: 'connected',
			phoneNumber: '+14155550100',
		});

		// Scanning twice is a conflict: there is nothing to scan any more.
		expect((await sandboxCall(`/sandbox/instances/${instance.id}/scan`)).status).toBe(409);
	});

	it('connects by pairing code on the given number', async () => {
		const instance = await client.instances.create({ body: { name: 'Pairing' } });
		const connection = await client.instances.connect({
			instanceId: instance.id,
			body: { method: 'pairing_code', phoneNumber: '+442071838750' },
		});
		expect(connection.pairingCode).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
		expect(connection.qr).toBeNull();
		const scan = await sandboxCall(`/sandbox/instances/${instance.id}/scan`);
		expect(scan.body).toMatchObject({ status: 'connected', phoneNumber: '+442071838750' });
	});

	it('sends a message: message.sent, then delivered, then read, each signed', async () => {
		const instance = await connectedInstance('Sender');
		const message = await client.messages.sendText({
			instanceId: instance.id,
			body: { to: '+14155550123', text: 'Hello' },
		});
		expect(message).toMatchObject({
			status: 'sent',
			direction: 'outbound',
			to: '+14155550123',
			type: 'text',
			content: { text: 'Hello' },
		});

		const ofMessage = (type: string) =>
			suite.receiver.waitForEvent(type, (delivery) => delivery.event.data.id === message.id);
		const [sent, delivered, read] = await Promise.all([
			ofMessage('message.sent'),
			ofMessage('message.delivered'),
			ofMessage('message.read'),
		]);
		expect([sent, delivered, read].map((delivery) => delivery.event.data.status)).toEqual([
			'sent',
			'delivered',
			'read',
		]);
		expect([sent, delivered, read].every((delivery) => delivery.signature.valid)).toBe(true);
		// Emitted in that order (deliveries run in parallel, so the order of arrival is not promised).
		const emitted = suite.sandbox.events
			.filter((event) => (event.data as { id?: string }).id === message.id)
			.map((event) => event.type);
		expect(emitted).toEqual(['message.sent', 'message.delivered', 'message.read']);
		await expect(
			client.messages.get({ instanceId: instance.id, messageId: message.id }),
		).resolves.toMatchObject({ status: 'read' });
	});

	it('fails a message to a number that is not on the channel (message.failed)', async () => {
		const instance = await connectedInstance('Failing');
		const message = await client.messages.sendText({
			instanceId: instance.id,
			body: { to: '+14155550000', text: 'Anyone?' },
		});
		const failed = await suite.receiver.waitForEvent(
			'message.failed',
			(delivery) => delivery.event.data.id === message.id,
		);
		expect(failed.event.data).toMatchObject({
			status: 'failed',
			error: { code: 'recipient_not_on_channel' },
		});
		const check = await client.contacts.checkNumbers({
			instanceId: instance.id,
			body: { phoneNumbers: ['+14155550000', '+14155550123'] },
		});
		expect(check.data.map((entry) => entry.exists)).toEqual([false, true]);
	});

	it('receives an inbound message (message.received) that can be marked read', async () => {
		const instance = await connectedInstance('Receiver', '+14155550111');
		const injected = await sandboxCall(`/sandbox/instances/${instance.id}/inbound`, {
			from: '+14155550122',
			text: 'Hi there',
		});
		expect(injected.status).toBe(201);
		const id = (injected.body as { id: string }).id;
		const received = await suite.receiver.waitForEvent(
			'message.received',
			(delivery) => delivery.event.data.id === id,
		);
		expect(received.event.data).toMatchObject({
			direction: 'inbound',
			from: '+14155550122',
			to: '+14155550111',
			content: { text: 'Hi there' },
			chatId: '14155550122@s.whatsapp.net',
		});
		const inbox = await client.messages.list({
			instanceId: instance.id,
			query: { direction: 'inbound' },
		});
		expect(inbox.data.map((message) => message.id)).toEqual([id]);
		await expect(
			client.messages.markRead({ instanceId: instance.id, messageId: id }),
		).resolves.toMatchObject({ status: 'read' });
	});

	it('uploads media as multipart and keeps what was sent', async () => {
		const instance = await connectedInstance('Media');
		const data = Buffer.from('%PDF-1.4 sandbox test file');
		const message = await client.messages.sendMediaUpload({
			instanceId: instance.id,
			body: { to: '+14155550123', mediaType: 'document', caption: 'The "invoice"' },
			file: { data, fileName: 'invoice.pdf', mimeType: 'application/pdf' },
		});
		expect(message).toMatchObject({
			type: 'document',
			content: {
				mediaType: 'document',
				caption: 'The "invoice"',
				fileName: 'invoice.pdf',
				mimeType: 'application/pdf',
				size: data.length,
			},
		});
	});

	it('keeps groups, participants and contacts consistent', async () => {
		const instance = await connectedInstance('Groups', '+14155550150');
		const group = await client.groups.create({
			instanceId: instance.id,
			body: { subject: 'Team', participants: ['+14155550151', '+14155550151', '+14155550000'] },
		});
		expect(group.id).toMatch(/@g\.us$/);
		// The owner is the instance's number; the number that is not on the channel was not added.
		expect(group.participants).toEqual([
			{ phoneNumber: '+14155550150', role: 'superadmin' },
			{ phoneNumber: '+14155550151', role: 'member' },
		]);
		const changed = await client.groups.updateParticipants({
			instanceId: instance.id,
			groupId: group.id,
			body: { action: 'add', participants: ['+14155550151', '+14155550152', '+14155550000'] },
		});
		expect(changed.results?.map((result) => result.status)).toEqual([
			'already_participant',
			'ok',
			'not_found',
		]);
		const owner = await client.groups.updateParticipants({
			instanceId: instance.id,
			groupId: group.id,
			body: { action: 'remove', participants: ['+14155550150'] },
		});
		expect(owner.results?.[0].status).toBe('not_allowed');
		await suite.receiver.waitForEvent(
			'group.participants_updated',
			(delivery) => delivery.event.data.id === group.id,
		);

		await client.messages.sendText({
			instanceId: instance.id,
			body: { to: group.id, text: 'Hello team' },
		});
		await expect(
			client.messages.sendText({
				instanceId: instance.id,
				body: { to: '120363000000000000@g.us', text: 'nobody' },
			}),
		).rejects.toBeInstanceOf(NotFoundError);

		const contact = await client.contacts.create({
			instanceId: instance.id,
			body: { phoneNumber: '+14155550160', name: 'Ada' },
		});
		await expect(
			client.contacts.create({ instanceId: instance.id, body: { phoneNumber: '+14155550160' } }),
		).rejects.toMatchObject({ status: 409, code: 'contact_exists' });
		await client.contacts.block({ instanceId: instance.id, contactId: contact.id });
		await expect(
			client.messages.sendText({
				instanceId: instance.id,
				body: { to: '+14155550160', text: 'blocked' },
			}),
		).rejects.toMatchObject({ status: 409, code: 'contact_blocked' });
		expect(
			(await sandboxCall(`/sandbox/instances/${instance.id}/inbound`, { from: '+14155550160' }))
				.status,
		).toBe(409);
		expect(
			(await client.contacts.list({ instanceId: instance.id, query: { blocked: true } })).data.map(
				(item) => item.id,
			),
		).toEqual([contact.id]);
		await client.contacts.unblock({ instanceId: instance.id, contactId: contact.id });
		await expect(
			client.messages.sendText({
				instanceId: instance.id,
				body: { to: '+14155550160', text: 'hello again' },
			}),
		).resolves.toMatchObject({ status: 'sent' });

		// Leaving a group removes it; deleting the instance takes its groups, contacts and messages along.
		await client.groups.leave({ instanceId: instance.id, groupId: group.id });
		await expect(
			client.groups.get({ instanceId: instance.id, groupId: group.id }),
		).rejects.toBeInstanceOf(NotFoundError);
		await client.instances.delete({ instanceId: instance.id });
		expect(
			suite.sandbox.store.all('contacts', (item) => item.instanceId === instance.id),
		).toHaveLength(0);
		expect(
			suite.sandbox.store.all('messages', (item) => item.instanceId === instance.id),
		).toHaveLength(0);
	});

	it('logs out (instance.disconnected) and then refuses to send', async () => {
		const instance = await connectedInstance('Logout');
		const filtered = await startReceiver();
		try {
			// A webhook filtered on another instance hears nothing of this one.
			const other = await client.instances.create({ body: { name: 'Other' } });
			const webhook = await client.webhooks.create({
				body: {
					url: filtered.url,
					events: ['instance.disconnected'],
					filters: { instanceIds: [other.id] },
				},
			});
			filtered.secrets.push(webhook.secret);

			await expect(client.instances.logout({ instanceId: instance.id })).resolves.toMatchObject({
				status: 'disconnected',
			});
			await suite.receiver.waitForEvent(
				'instance.disconnected',
				(delivery) => delivery.event.data.id === instance.id,
			);
			await expect(
				client.messages.sendText({
					instanceId: instance.id,
					body: { to: '+14155550123', text: 'gone' },
				}),
			).rejects.toMatchObject({ status: 409, code: 'instance_not_connected' });

			await client.instances.connect({ instanceId: other.id, body: {} });
			await sandboxCall(`/sandbox/instances/${other.id}/scan`);
			await sandboxCall(`/sandbox/instances/${other.id}/disconnect`);
			await filtered.waitForEvent('instance.disconnected');
			await waitFor(
				() => suite.receiver.of('instance.disconnected').length >= 2,
				2000,
				'both disconnects on the unfiltered webhook',
			);
			// Deliveries are queued when the event is emitted: the filtered webhook got one, for the other instance.
			expect(
				suite.sandbox.store.all('deliveries', (delivery) => delivery.webhookId === webhook.id),
			).toHaveLength(1);
			expect(filtered.received.map((delivery) => delivery.event.data.id)).toEqual([other.id]);
		} finally {
			await filtered.close();
		}
	});
});
