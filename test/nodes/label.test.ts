/**
 * The Label resource of the Multichannel node and Chat → Get Many by label, run as real workflows through n8n-core
 * against the sandbox on loopback: Create, Get Many, Update, Delete, Add to Chat, Remove from Chat (a chat named by
 * a number, as an AI tool with $fromAI), the label picker's search, and input mistakes named by field and item.
 * The exact requests are pinned with nock in label-wire.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { runListSearch, runNode } from '../../dev/harness';
import {
	byId,
	expectNoSecrets,
	failure,
	multichannelNode,
	NODE_NAME,
	registerToolVariant,
	startService,
	type TestService,
} from '../support/nodes';

const ana = '+14155550401';
const anaChat = '14155550401@s.whatsapp.net';
const benChat = '14155550402@s.whatsapp.net';

let service: TestService;
let instanceId: string;

beforeAll(async () => {
	service = await startService();
	instanceId = (await service.connectedInstance('Labels', '+14155550400')).id;
	await service.inbound(instanceId, ana, 'Where is my order?');
	await service.inbound(instanceId, '+14155550402', 'Hi');
});
afterAll(async () => await service?.close());

const run = async (
	resource: string,
	parameters: IDataObject,
	type?: string,
	items?: IDataObject[],
) => {
	const result = await runNode(multichannelNode(resource, parameters, type ? { type } : {}), {
		credentials: service.credentials,
		items,
	});
	expectNoSecrets(result, [service.apiKey]);
	return result;
};
const label = (parameters: IDataObject) => run('label', parameters);
const onChat = (operation: string, chatId: string, labelId: string) =>
	label({ operation, instanceId: byId(instanceId), chatId: byId(chatId), labelId: byId(labelId) });
const names = (labels: unknown) => (labels as Array<{ name: string }>).map(({ name }) => name);

test('Create, Get Many (search), Update and the picker; a name in use is refused naming the label', async () => {
	const created = await label({
		operation: 'create',
		name: ' Support ',
		additionalFields: { color: '#00a0f2' },
	});
	const support = created.json(NODE_NAME)[0];
	expect(support).toMatchObject({ name: 'Support', color: '#00a0f2', chatCount: 0 });
	await label({ operation: 'create', name: 'Billing' });

	const found = await label({ operation: 'getAll', returnAll: true, filters: { search: 'sup' } });
	expect(names(found.json(NODE_NAME))).toEqual(['Support']);

	const updated = await label({
		operation: 'update',
		labelId: byId(String(support.id)),
		updateFields: { name: 'Support queue', color: '#9368cf' },
	});
	expect(updated.json(NODE_NAME)[0]).toMatchObject({ name: 'Support queue', color: '#9368cf' });

	const listed = await runListSearch(
		{
			...multichannelNode('label', { operation: 'update' }),
			method: 'searchLabels',
			filter: 'queue',
		},
		{ credentials: service.credentials },
	);
	expect(listed.results).toEqual([{ name: 'Support queue', value: support.id }]);

	const taken = await label({ operation: 'create', name: 'billing' });
	expect(failure(taken).message).toContain('Billing');
	const nothing = await label({ operation: 'update', labelId: byId(String(support.id)) });
	expect(failure(nothing).message).toMatch(/item 0|Update Fields/i);
});

test('Add to Chat (by number too), Chat → Get Many by label, Remove from Chat, Delete takes it off', async () => {
	const vip = (await label({ operation: 'create', name: 'VIP' })).json(NODE_NAME)[0];
	const vipId = String(vip.id);

	const added = await onChat('addToChat', ana, vipId);
	expect(added.json(NODE_NAME)[0]).toMatchObject({ instanceId, chatId: anaChat });
	expect(names(added.json(NODE_NAME)[0].labels)).toEqual(['VIP']);
	await onChat('addToChat', benChat, vipId);

	const removed = await onChat('removeFromChat', benChat, vipId);
	expect(removed.json(NODE_NAME)[0].labels).toEqual([]);

	const chats = await run('chat', {
		operation: 'getAll',
		instanceId: byId(instanceId),
		returnAll: true,
		filters: { labelId: byId(vipId) },
	});
	expect(chats.json(NODE_NAME).map((chat) => [chat.id, names(chat.labels)])).toEqual([
		[anaChat, ['VIP']],
	]);

	const deleted = await label({ operation: 'delete', labelId: byId(vipId) });
	expect(deleted.json(NODE_NAME)).toEqual([{ deleted: true, id: vipId }]);
	const after = await run('chat', {
		operation: 'get',
		instanceId: byId(instanceId),
		chatId: byId(anaChat),
	});
	expect(after.json(NODE_NAME)[0].labels).toEqual([]);
});

test('as an AI tool: the chat and the label from $fromAI', async () => {
	const { type } = await registerToolVariant();
	const urgent = String(
		(await label({ operation: 'create', name: 'Urgent' })).json(NODE_NAME)[0].id,
	);

	const result = await run(
		'label',
		{
			operation: 'addToChat',
			instanceId: byId(instanceId),
			chatId: byId("={{ $fromAI('chatId', 'The chat ID or phone number', 'string') }}"),
			labelId: byId("={{ $fromAI('labelId', 'The label ID', 'string') }}"),
		},
		type,
		[{ chatId: ana, labelId: urgent }],
	);

	expect(result.error).toBeUndefined();
	expect(names(result.json(NODE_NAME)[0].labels)).toContain('Urgent');
});
