import type { Sandbox } from '../../sandbox/server';
import { signedMediaToken } from '../../nodes/shared/message-files';
import { checkExchanges } from '../support/contract-exchanges';
import { driveCampaigns } from './contract-campaigns';
import {
	clientsFor,
	raw,
	startReceiver,
	startTestSandbox,
	waitFor,
	type Exchange,
	type Receiver,
} from '../support/sandbox';

/**
 * Drives every operation of `api` against a running sandbox over loopback and checks each answer three
 * ways (test/support/contract-exchanges.ts): the status the contract names, the operation's own (lenient) zod
 * response schema, and the OpenAPI document's schema made strict, so that every field the document describes
 * must be there. An operation of the contract that is not called here fails the test.
 */

type Keys = NonNullable<Sandbox['keys']>;

describe('sandbox contract: every operation of the OpenAPI document', () => {
	let sandbox: Sandbox;
	let keys: Keys;
	let receiver: Receiver;
	const log: Exchange[] = [];

	beforeAll(async () => {
		sandbox = await startTestSandbox();
		keys = sandbox.keys as Keys;
		receiver = await startReceiver();
	});
	afterAll(async () => {
		await sandbox.close();
		await receiver.close();
	});

	/** The ids of the events delivered to the receiver at `path`, oldest first. */
	const deliveredTo = (path: string) =>
		receiver.received
			.filter((delivery) => delivery.path === path)
			.map((delivery) => delivery.event.id);

	it('drives all operations and every answer matches the contract', async () => {
		const { workspace, shortLink, automation } = clientsFor(sandbox.baseUrl, keys, log);
		const sandboxCall = (path: string, body: unknown = {}) =>
			raw(sandbox.baseUrl, 'POST', path, { key: keys.workspace, body });

		// Models.
		const models = await workspace.models.list();
		await workspace.models.get({ modelId: models.data[0].id });

		// Instances, connected through the sandbox-only scan.
		const instance = await workspace.instances.create({
			body: { name: 'Contract', description: 'every operation' },
		});
		const spare = await workspace.instances.create({ body: { name: 'Spare' } });
		await workspace.instances.list({ query: { limit: 10 } });
		await workspace.instances.get({ instanceId: instance.id });
		await workspace.instances.connect({ instanceId: instance.id, body: { method: 'qr' } });
		expect((await sandboxCall(`/sandbox/instances/${instance.id}/scan`)).status).toBe(200);
		await workspace.instances.getConnectionState({ instanceId: instance.id });
		await workspace.instances.restart({ instanceId: instance.id });
		await workspace.instances.update({
			instanceId: instance.id,
			body: { name: 'Contract', rejectCalls: false, rejectCallsText: 'Please write instead' },
		});
		const instanceId = instance.id;

		// Messaging webhook first, so the channel's events have somewhere to go.
		const hook = await workspace.webhooks.create({
			body: { url: `${receiver.url}/messaging`, events: ['*'], description: 'all' },
		});
		receiver.secrets.push(hook.secret);
		await workspace.webhooks.list();
		await workspace.webhooks.get({ webhookId: hook.id });
		await workspace.webhooks.update({
			webhookId: hook.id,
			body: { events: ['*'], filters: { instanceIds: [instanceId] } },
		});

		// Contacts.
		await workspace.contacts.checkNumbers({
			instanceId,
			body: { phoneNumbers: ['+14155550180', '+14155550000'] },
		});
		const contact = await workspace.contacts.create({
			instanceId,
			body: { phoneNumber: '+14155550181', name: 'Lin', tags: ['vip'] },
		});
		await workspace.contacts.list({ instanceId, query: { search: 'lin' } });
		await workspace.contacts.get({ instanceId, contactId: contact.id });
		await workspace.contacts.update({
			instanceId,
			contactId: contact.id,
			body: { email: 'lin@example.com' },
		});
		await workspace.contacts.block({ instanceId, contactId: contact.id });
		await workspace.contacts.unblock({ instanceId, contactId: contact.id });

		// Messages of every kind.
		const to = '+14155550182';
		const text = await workspace.messages.sendText({
			instanceId,
			body: { to, text: 'Hello', previewUrl: false },
		});
		await workspace.messages.sendMedia({
			instanceId,
			body: { to, mediaType: 'image', url: 'https://example.com/a.png', caption: 'A' },
		});
		const upload = await workspace.messages.sendMediaUpload({
			instanceId,
			body: { to, mediaType: 'audio' },
			file: { data: Buffer.from('OggS'), fileName: 'note.ogg', mimeType: 'audio/ogg' },
		});
		await workspace.messages.downloadMedia({ messageId: upload.id });
		await workspace.messages.sendLocation({
			instanceId,
			body: { to, latitude: 52.52, longitude: 13.405, name: 'Berlin' },
		});
		await workspace.messages.sendContactCard({
			instanceId,
			body: { to, contacts: [{ name: 'Ada', phoneNumbers: ['+14155550183'] }] },
		});
		await workspace.messages.sendReaction({
			instanceId,
			body: { to, messageId: text.id, emoji: '👍' },
		});
		const poll = await workspace.messages.sendPoll({
			instanceId,
			body: { to, question: 'Lunch?', options: ['Yes', 'No'], quotedMessageId: text.id },
		});
		const vote = `/sandbox/instances/${instanceId}/messages/${poll.id}/vote`;
		expect((await sandboxCall(vote, { options: ['No'] })).status).toBe(201);
		await workspace.polls.getResults({ instanceId, messageId: poll.id });
		const ringing = await sandboxCall(`/sandbox/instances/${instanceId}/calls`, { from: to });
		expect(ringing.status).toBe(201);
		const callId = (ringing.body as { id: string }).id;
		await workspace.calls.reject({ instanceId, callId, body: { text: 'Busy, write to me' } });
		await workspace.messages.sendButtons({
			instanceId,
			body: { to, text: 'Confirm?', footer: 'Tap one', buttons: [{ id: 'yes', title: 'Yes' }] },
		});
		await workspace.messages.sendList({
			instanceId,
			body: {
				to,
				text: 'Pick a slot',
				buttonText: 'Slots',
				sections: [{ rows: [{ id: 'am', title: 'Morning', description: '9 to 12' }] }],
			},
		});
		await workspace.messages.sendTyping({
			instanceId,
			body: { to, state: 'recording', seconds: 2 },
		});
		// A scheduled send, listed and cancelled.
		const scheduled = await workspace.messages.sendText({
			instanceId,
			body: { to, text: 'Later', sendAt: new Date(Date.now() + 3_600_000).toISOString() },
		});
		await workspace.scheduledMessages.list({ instanceId, query: { status: 'scheduled' } });
		await workspace.scheduledMessages.cancel({ instanceId, messageId: scheduled.id });
		await workspace.messages.edit({
			instanceId,
			messageId: text.id,
			body: { text: 'Hello again' },
		});
		const inbound = await sandboxCall(`/sandbox/instances/${instanceId}/inbound`, {
			from: to,
			text: 'Reply',
		});
		const inboundId = (inbound.body as { id: string }).id;
		await workspace.messages.list({ instanceId, query: { limit: 3 } });
		await workspace.messages.get({ instanceId, messageId: text.id });
		await workspace.messages.markRead({ instanceId, messageId: inboundId });

		// Chats, and the messages of one.
		const chats = await workspace.chats.list({ instanceId, query: { search: '+1 415', limit: 5 } });
		const chatId = chats.data[0].id;
		await workspace.chats.get({ instanceId, chatId });
		await workspace.chats.markRead({ instanceId, chatId });
		await workspace.chats.handOver({ instanceId, chatId });
		await workspace.chats.giveBack({ instanceId, chatId });

		// Labels, put on and taken off a chat.
		const label = await workspace.labels.create({ body: { name: 'Support', color: '#00a0f2' } });
		await workspace.labels.list({ query: { search: 'sup' } });
		await workspace.labels.get({ labelId: label.id });
		await workspace.labels.update({ labelId: label.id, body: { name: 'Support queue' } });
		await workspace.chats.addLabel({ instanceId, chatId, labelId: label.id });
		await workspace.chats.list({ instanceId, query: { labelId: label.id } });
		await workspace.chats.removeLabel({ instanceId, chatId, labelId: label.id });
		await workspace.labels.delete({ labelId: label.id });

		// Statuses, one viewed by a contact.
		const story = await workspace.statuses.post({
			instanceId,
			body: { type: 'text', text: 'Open on Sunday', backgroundColor: '#128c7e' },
		});
		await workspace.statuses.post({
			instanceId,
			body: { type: 'video', url: 'https://example.com/tour.mp4', caption: 'Tour' },
		});
		await workspace.statuses.postUpload({
			instanceId,
			body: { type: 'image', caption: 'Menu' },
			file: { data: Buffer.from('89504e47', 'hex'), fileName: 'menu.png', mimeType: 'image/png' },
		});
		await sandboxCall(`/sandbox/instances/${instanceId}/statuses/${story.id}/view`, {
			from: '+14155550123',
		});
		await workspace.statuses.list({ instanceId, query: { limit: 5 } });
		await workspace.statuses.delete({ instanceId, statusId: story.id });
		await driveCampaigns(workspace, instanceId);
		await workspace.messages.list({
			instanceId,
			query: {
				chatId,
				direction: 'inbound',
				since: '2020-01-01T00:00:00Z',
				until: '2100-01-01T00:00:00+01:00',
				order: 'oldest',
			},
		});

		// Waiting for an answer (a tap, which a text message never gets: nothing is delivered).
		const waiting = await workspace.answers.register({
			instanceId,
			body: {
				messageId: text.id,
				accepts: ['reply'],
				url: `${receiver.url}/answers`,
				secret: 's'.repeat(32),
				expiresAt: new Date(Date.now() + 60_000).toISOString(),
				allowedToAnswer: ['+14155550123', '14155550124@s.whatsapp.net'],
				afterAnswer: { editQuestion: true },
			},
		});
		await workspace.answers.list({ instanceId });
		await workspace.answers.get({ instanceId, answerId: waiting.id });
		await workspace.answers.delete({ instanceId, answerId: waiting.id });
		await workspace.messages.delete({ instanceId, messageId: text.id });

		// Groups.
		const group = await workspace.groups.create({
			instanceId,
			body: { subject: 'Contract', participants: ['+14155550184'] },
		});
		await workspace.groups.list({ instanceId });
		await workspace.groups.get({ instanceId, groupId: group.id });
		await workspace.groups.update({
			instanceId,
			groupId: group.id,
			body: { description: 'A group', settings: { locked: true } },
		});
		await workspace.groups.updateParticipants({
			instanceId,
			groupId: group.id,
			body: { action: 'promote', participants: ['+14155550184'] },
		});
		await workspace.groups.getInviteCode({ instanceId, groupId: group.id });
		await workspace.groups.revokeInviteCode({ instanceId, groupId: group.id });
		await workspace.groups.leave({ instanceId, groupId: group.id });

		// The delivery log, once something was delivered.
		await waitFor(() => receiver.received.length > 0, 5000, 'a messaging delivery');
		await waitFor(
			() =>
				sandbox.store.all(
					'deliveries',
					(delivery) => delivery.webhookId === hook.id && delivery.status !== 'pending',
				).length > 0,
		);
		await workspace.webhooks.listDeliveries({ webhookId: hook.id });
		const [first, second] = deliveredTo('/messaging');
		const claim = { webhookId: hook.id, body: { eventId: first } };
		expect(await workspace.webhooks.claimEvent(claim)).toMatchObject({ claimed: true });
		expect(await workspace.webhooks.claimEvent(claim)).toMatchObject({ claimed: false });
		const signed = { signingSecret: hook.secret };
		expect(hook.signedClaims).toBe(true);
		expect(
			await workspace.webhooks.claimEventSigned(
				{ webhookId: hook.id, body: { eventId: second } },
				signed,
			),
		).toMatchObject({ claimed: true });
		// The file of the upload, at the signed URL its delivered event carries, with no key.
		const withFile = await waitFor(() =>
			receiver.received.find(
				(delivery) => delivery.event.data.id === upload.id && delivery.raw.includes('downloadUrl'),
			),
		);
		const token = signedMediaToken(
			(withFile.event.data.media as { downloadUrl?: string }).downloadUrl,
		);
		await workspace.messages.downloadSignedMedia({ token: token ?? '' });

		await workspace.contacts.delete({ instanceId, contactId: contact.id });
		await workspace.instances.logout({ instanceId });
		await workspace.instances.delete({ instanceId: spare.id });
		await workspace.webhooks.rotateSecret({ webhookId: hook.id, body: {} });
		await workspace.webhooks.delete({ webhookId: hook.id });

		// Short links.
		const linkHook = await shortLink.webhooks.create({
			body: { url: `${receiver.url}/links`, events: ['link.clicked', 'link.created'] },
		});
		receiver.secrets.push(linkHook.secret);
		const link = await shortLink.links.create({
			body: {
				url: 'https://example.com/contract',
				title: 'Contract',
				tags: ['docs'],
				expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
			},
		});
		await shortLink.links.list({ query: { tag: 'docs' } });
		await shortLink.links.get({ linkId: link.id });
		await shortLink.links.update({ linkId: link.id, body: { title: null } });
		expect(
			(
				await raw(sandbox.baseUrl, 'GET', `/${link.code}`, {
					headers: { 'user-agent': 'Mozilla/5.0 (Macintosh) Version/17.0 Safari/605.1' },
				})
			).status,
		).toBe(302);
		await shortLink.clicks.list({
			linkId: link.id,
			query: { includeBots: true, since: new Date(Date.now() - 60_000).toISOString() },
		});
		await shortLink.webhooks.list();
		await shortLink.webhooks.get({ webhookId: linkHook.id });
		await shortLink.webhooks.update({ webhookId: linkHook.id, body: { description: 'clicks' } });
		await waitFor(
			() =>
				sandbox.store.all(
					'deliveries',
					(delivery) => delivery.webhookId === linkHook.id && delivery.status !== 'pending',
				).length > 0,
		);
		await shortLink.webhooks.listDeliveries({ webhookId: linkHook.id });
		const [linkEvent, otherLinkEvent] = deliveredTo('/links');
		await shortLink.webhooks.claimEvent({ webhookId: linkHook.id, body: { eventId: linkEvent } });
		await shortLink.webhooks.claimEventSigned(
			{ webhookId: linkHook.id, body: { eventId: otherLinkEvent ?? linkEvent } },
			{ signingSecret: linkHook.secret },
		);
		await shortLink.webhooks.rotateSecret({ webhookId: linkHook.id, body: {} });
		await shortLink.webhooks.delete({ webhookId: linkHook.id });
		await shortLink.links.delete({ linkId: link.id });

		// Automation.
		const automationHook = await automation.webhooks.create({
			body: { url: `${receiver.url}/automation`, events: ['automation.*'] },
		});
		receiver.secrets.push(automationHook.secret);
		await automation.events.publish({
			body: { name: 'contract.done', payload: { ok: true }, occurredAt: new Date().toISOString() },
		});
		await automation.events.list({ query: { name: 'contract.done' } });
		await automation.webhooks.list();
		await automation.webhooks.get({ webhookId: automationHook.id });
		await automation.webhooks.update({ webhookId: automationHook.id, body: { events: ['*'] } });
		await waitFor(
			() =>
				sandbox.store.all(
					'deliveries',
					(delivery) => delivery.webhookId === automationHook.id && delivery.status !== 'pending',
				).length > 0,
		);
		await automation.webhooks.listDeliveries({ webhookId: automationHook.id });
		const [automationEvent] = deliveredTo('/automation');
		await automation.webhooks.claimEventSigned(
			{ webhookId: automationHook.id, body: { eventId: automationEvent } },
			{ signingSecret: automationHook.secret },
		);
		await automation.webhooks.claimEvent({
			webhookId: automationHook.id,
			body: { eventId: automationEvent },
		});
		await automation.webhooks.rotateSecret({ webhookId: automationHook.id, body: {} });
		await automation.webhooks.delete({ webhookId: automationHook.id });

		// Every delivery that reached the receiver was signed correctly.
		expect(receiver.received.every((delivery) => delivery.signature.valid)).toBe(true);

		// Now the checks, exchange by exchange.
		const { problems, uncovered } = checkExchanges(log);
		expect(problems).toEqual([]);
		expect(uncovered).toEqual([]);
	});
});
