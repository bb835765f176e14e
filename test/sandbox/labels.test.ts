/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tests run in plain Node, never inside n8n */
/**
 * The sandbox's labels: the bound of 20 per workspace and unique names; a chat's labels on the chat and in the
 * chat list's label filter; `chat.labels_changed` for each change (none for a change that changes nothing);
 * deleting a label takes it off every chat, each with its event; labels and chats' labels kept across a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { MAX_LABELS } from '../../src/client/resources/labels';
import type { Sandbox } from '../../sandbox/server';
import { clientsFor, raw, startTestSandbox } from '../support/sandbox';

type Keys = NonNullable<Sandbox['keys']>;

const directory = mkdtempSync(join(tmpdir(), 'sandbox-labels-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A sandbox on the data file; after a restart it issues no keys, so the first run's are given. */
async function start(dataFile: string, earlier?: Keys) {
	const sandbox = await startTestSandbox({ dataFile, rateLimit: false });
	const keys = earlier ?? (sandbox.keys as Keys);
	return { sandbox, keys, workspace: clientsFor(sandbox.baseUrl, keys).workspace };
}

const changes = (sandbox: Sandbox) =>
	sandbox.core.emitted
		.filter((event) => event.type === 'chat.labels_changed')
		.map((event) => event.data as Record<string, unknown>)
		.map((data) => ({
			chatId: data.chatId,
			labels: (data.labels as Array<{ name: string }>).map(({ name }) => name),
			added: (data.added as Array<{ name: string }>).map(({ name }) => name),
			removed: (data.removed as Array<{ name: string }>).map(({ name }) => name),
			reason: data.reason,
		}));

test('labels: bound, names, chats by label, one event per change, delete takes them off, kept across a restart', async () => {
	const dataFile = join(directory, 'state.json');
	const first = await start(dataFile);
	const { sandbox, keys, workspace } = first;
	const instance = await workspace.instances.create({ body: { name: 'Labels' } });
	await workspace.instances.connect({ instanceId: instance.id, body: {} });
	const call = (path: string, body: object) =>
		raw(sandbox.baseUrl, 'POST', path, { key: keys.workspace, body });
	await call(`/sandbox/instances/${instance.id}/scan`, { phoneNumber: '+14155550180' });
	await call(`/sandbox/instances/${instance.id}/inbound`, { from: '+14155550181', text: 'a' });
	await call(`/sandbox/instances/${instance.id}/inbound`, { from: '+14155550182', text: 'b' });
	const [ana, ben] = ['14155550181@s.whatsapp.net', '14155550182@s.whatsapp.net'];
	const instanceId = instance.id;

	const vip = await workspace.labels.create({ body: { name: 'VIP' } });
	const unpaid = await workspace.labels.create({ body: { name: 'Unpaid', color: '#f74848' } });
	// A new label without a colour gets the first colour no label uses.
	expect([vip.color, unpaid.color]).toEqual(['#ff9dff', '#f74848']);
	await expect(workspace.labels.create({ body: { name: 'vip' } })).rejects.toMatchObject({
		status: 409,
		code: 'label_exists',
	});

	await workspace.chats.addLabel({ instanceId, chatId: ana, labelId: vip.id });
	await workspace.chats.addLabel({ instanceId, chatId: '+14155550181', labelId: unpaid.id });
	// Already there, and not there: no change, no event.
	await workspace.chats.addLabel({ instanceId, chatId: ana, labelId: vip.id });
	await workspace.chats.removeLabel({ instanceId, chatId: ben, labelId: vip.id });
	await workspace.chats.addLabel({ instanceId, chatId: ben, labelId: unpaid.id });
	await expect(
		workspace.chats.addLabel({ instanceId, chatId: '14155550199@s.whatsapp.net', labelId: vip.id }),
	).rejects.toMatchObject({ status: 404 });

	const byLabel = await workspace.chats.list({ instanceId, query: { labelId: vip.id } });
	expect(byLabel.data.map((chat) => [chat.id, chat.labels?.map(({ name }) => name)])).toEqual([
		[ana, ['VIP', 'Unpaid']],
	]);
	expect((await workspace.labels.get({ labelId: unpaid.id })).chatCount).toBe(2);

	await workspace.labels.delete({ labelId: unpaid.id });
	expect(changes(sandbox)).toEqual([
		{ chatId: ana, labels: ['VIP'], added: ['VIP'], removed: [], reason: 'added' },
		{ chatId: ana, labels: ['VIP', 'Unpaid'], added: ['Unpaid'], removed: [], reason: 'added' },
		{ chatId: ben, labels: ['Unpaid'], added: ['Unpaid'], removed: [], reason: 'added' },
		{ chatId: ana, labels: ['VIP'], added: [], removed: ['Unpaid'], reason: 'label_deleted' },
		{ chatId: ben, labels: [], added: [], removed: ['Unpaid'], reason: 'label_deleted' },
	]);
	// A chat without labels keeps no record.
	expect(sandbox.store.all('chatLabels').map(({ chatId }) => chatId)).toEqual([ana]);

	for (let n = 2; n <= MAX_LABELS; n += 1) {
		await workspace.labels.create({ body: { name: `Topic ${n}` } });
	}
	await expect(workspace.labels.create({ body: { name: 'One too many' } })).rejects.toMatchObject({
		status: 409,
		code: 'label_limit_reached',
	});
	await sandbox.close();

	const second = await start(dataFile, keys);
	const kept = await second.workspace.labels.list({ query: { limit: 100 } });
	expect(kept.data).toHaveLength(MAX_LABELS);
	const chat = await second.workspace.chats.get({ instanceId, chatId: ana });
	expect(chat.labels?.map(({ id }) => id)).toEqual([vip.id]);
	await second.sandbox.close();
});
