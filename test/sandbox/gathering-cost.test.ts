/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tests run in plain Node, never inside n8n */
/**
 * What gathering costs as bursts pile up (issue 33, finding 5), through real HTTP: a message finds its burst
 * without reading the others; holding one more message writes that message to the data file, not the whole
 * burst again; the bound on open bursts is per workspace, so one workspace's flood delivers none of another's
 * bursts; a burst due while its webhook is disabled is held, under the held bound, like any other event.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { GatherOptions } from '../../src/client';
import type { Store } from '../../sandbox/store/store';
import { ANNA, BEN, openBursts, withService } from '../support/gathering';
import {
	clientsFor,
	raw,
	startReceiver,
	waitFor,
	type Receiver,
	type SandboxKeys,
} from '../support/sandbox';

let receiver: Receiver;
beforeAll(async () => {
	receiver = await startReceiver();
});
afterAll(async () => await receiver.close());

/** A gathering messaging webhook at its own receiver path, registered with `keys`' workspace. */
async function gatheringWebhook(
	baseUrl: string,
	keys: SandboxKeys,
	path: string,
	gather: GatherOptions = { quietSeconds: 60 },
	events: Array<'message.received' | 'message.sent'> = ['message.received'],
) {
	const created = await clientsFor(baseUrl, keys).workspace.webhooks.create({
		body: { url: `${receiver.url}/${path}`, events, gather },
	});
	receiver.secrets.push(created.secret);
	return created;
}

const gatheredAt = (path: string) =>
	receiver.received.filter((d) => d.path === `/${path}` && d.event.data.gathered);

/** Counts the burst records that scans of the store read from now on. */
function countBurstScans(store: Store): () => number {
	let read = 0;
	const values = store.values.bind(store);
	const all = store.all.bind(store);
	jest.spyOn(store, 'values').mockImplementation(function* (collection) {
		for (const record of values(collection)) {
			if (collection === 'bursts') read++;
			yield record;
		}
	} as Store['values']);
	jest.spyOn(store, 'all').mockImplementation(((collection, predicate) => {
		const records = all(collection, predicate);
		if (collection === 'bursts') read += all(collection).length;
		return records;
	}) as Store['all']);
	return () => read;
}

afterEach(() => jest.restoreAllMocks());

it('a message finds its burst without reading the other open bursts', async () => {
	await withService({}, async (service, instanceId) => {
		await gatheringWebhook(service.sandbox.baseUrl, service.sandbox.keys!, 'scan');
		for (let index = 0; index < 40; index++) {
			await service.inbound(instanceId, `+1415556${String(index).padStart(4, '0')}`, 'open');
		}
		expect(openBursts(service.sandbox.store)).toHaveLength(40);
		const read = countBurstScans(service.sandbox.store);
		await service.inbound(instanceId, ANNA, 'a new chat');
		await service.inbound(instanceId, ANNA, 'the same chat');
		await service.inbound(instanceId, '+14155560007', 'an open chat');
		expect(read()).toBe(0);
		expect(openBursts(service.sandbox.store)).toHaveLength(41);
	});
});

describe('the data file', () => {
	const directory = mkdtempSync(join(tmpdir(), 'sandbox-gather-cost-'));
	afterAll(() => rmSync(directory, { recursive: true, force: true }));

	it('grows by what each held message adds, not by the whole burst again', async () => {
		const dataFile = join(directory, 'state.jsonl');
		await withService({ dataFile }, async (service, instanceId) => {
			await gatheringWebhook(service.sandbox.baseUrl, service.sandbox.keys!, 'bytes');
			const added: number[] = [];
			for (let index = 0; index < 40; index++) {
				const before = statSync(dataFile).size;
				await service.inbound(instanceId, ANNA, `message number ${String(index).padStart(3, '0')}`);
				added.push(statSync(dataFile).size - before);
			}
			expect(openBursts(service.sandbox.store)).toHaveLength(1);
			// The first hold also opens the burst; every later one adds the same few hundred bytes.
			const later = added.slice(1);
			expect(Math.max(...later)).toBeLessThan(Math.min(...later) * 1.1);
			expect(later[later.length - 1]).toBeLessThan(2 * later[0]);
		});
	});
});

it("bounds open bursts per workspace: one workspace's flood delivers none of another's", async () => {
	await withService({ gathering: { maxOpenBursts: 2 } }, async (service, instanceId) => {
		const { sandbox } = service;
		const other = sandbox.createWorkspace('Other');
		const theirs = clientsFor(sandbox.baseUrl, other.keys).workspace;
		const instance = await theirs.instances.create({ body: { name: 'Theirs' } });
		await theirs.instances.connect({ instanceId: instance.id, body: { method: 'qr' } });
		const call = async (path: string, body: object) =>
			expect(
				(await raw(sandbox.baseUrl, 'POST', path, { key: other.keys.workspace, body })).status,
			).toBeLessThan(300);
		await call(`/sandbox/instances/${instance.id}/scan`, { phoneNumber: '+14155550170' });
		await gatheringWebhook(sandbox.baseUrl, other.keys, 'theirs');
		await call(`/sandbox/instances/${instance.id}/inbound`, { from: ANNA, text: 'theirs' });

		await gatheringWebhook(sandbox.baseUrl, sandbox.keys!, 'flood');
		await service.inbound(instanceId, ANNA, 'first chat');
		await service.inbound(instanceId, BEN, 'second chat');
		await service.inbound(instanceId, '+14155550183', 'third chat');
		const oldest = await waitFor(() => gatheredAt('flood')[0], 3000, 'the oldest burst');
		expect(oldest.event.data).toMatchObject({ from: ANNA, count: 1 });
		const bursts = openBursts(sandbox.store);
		expect(bursts.filter((burst) => burst.workspaceId === other.workspace.id)).toHaveLength(1);
		expect(bursts.filter((burst) => burst.workspaceId === sandbox.workspaceId)).toHaveLength(2);
		expect(gatheredAt('theirs')).toHaveLength(0);
	});
});

it('a burst due while its webhook is disabled is held under the held bound, and sent once enabled', async () => {
	// The sandbox's clock, held until the webhook is disabled: a disabling request slower than the quiet period
	// (1 s; a loaded machine, through Prism) let the burst go first.
	let clock = Date.now();
	const options = { now: () => clock, webhooks: { maxHeldPerWebhook: 2 } };
	await withService(options, async (service, instanceId) => {
		const { sandbox, client } = service;
		const hook = await gatheringWebhook(
			sandbox.baseUrl,
			sandbox.keys!,
			'disabled',
			{ quietSeconds: 1, maxWaitSeconds: 1 },
			['message.received', 'message.sent'],
		);
		const deliveries = () => sandbox.store.all('deliveries', (d) => d.webhookId === hook.id);
		await service.inbound(instanceId, ANNA, 'held in a burst');
		await client.webhooks.update({ webhookId: hook.id, body: { enabled: false } });
		for (const text of ['one', 'two']) {
			await client.messages.sendText({ instanceId, body: { to: BEN, text } });
		}
		clock += 1000;
		await waitFor(() => openBursts(sandbox.store).length === 0, 5000, 'the burst due');
		await waitFor(
			() => deliveries().every((d) => d.status === 'held'),
			5000,
			'every delivery held',
		);
		const held = deliveries();
		expect(held.map((d) => d.eventType)).toEqual(['message.sent', 'message.received']);
		expect(receiver.received.filter((d) => d.path === '/disabled')).toHaveLength(0);

		await client.webhooks.update({ webhookId: hook.id, body: { enabled: true } });
		const gathered = await waitFor(() => gatheredAt('disabled')[0], 5000, 'the burst sent');
		expect(gathered.event.data).toMatchObject({ from: ANNA, count: 1 });
	});
});
