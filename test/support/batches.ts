/** What the batch tests share: a sandbox with its three clients, a batching webhook, what reached it. */
import type { BatchOptions } from '../../src/client';
import type { Sandbox, SandboxOptions } from '../../sandbox/server';
import type { OpenBatchRecord, Store } from '../../sandbox/store/store';
import { clientsFor, raw, startTestSandbox, type Receiver } from './sandbox';

export type Clients = ReturnType<typeof clientsFor>;

type Keys = { workspace: string; shortLink: string; automation: string };

/** A sandbox and its clients; started again on a data file, with the keys its first start gave. */
export async function startBatchSandbox(
	options: SandboxOptions = {},
	earlierKeys?: Keys,
): Promise<{ sandbox: Sandbox; clients: Clients; keys: Keys }> {
	const sandbox = await startTestSandbox({ rateLimit: false, ...options });
	const keys = earlierKeys ?? (sandbox.keys as Keys);
	return { sandbox, clients: clientsFor(sandbox.baseUrl, keys), keys };
}

/** An automation webhook for every event, at its own receiver path. */
export async function automationWebhook(
	clients: Clients,
	receiver: Receiver,
	path: string,
	batch: BatchOptions | null,
) {
	const created = await clients.automation.webhooks.create({
		body: { url: `${receiver.url}/${path}`, events: ['automation.*'], batch },
	});
	receiver.secrets.push(created.secret);
	return created;
}

/** Publishes the events `order.<n>` for each n given, one after the other; answers their payloads' n. */
export async function publish(clients: Clients, numbers: number[]): Promise<void> {
	for (const n of numbers) {
		await clients.automation.events.publish({ body: { name: `order.n${n}`, payload: { n } } });
	}
}

/** Opens a short link as a visitor does (the sandbox's redirect): one click. */
export async function click(sandbox: Sandbox, code: string): Promise<void> {
	const visit = await raw(sandbox.baseUrl, 'GET', `/${code}`, {
		headers: { 'user-agent': 'Mozilla/5.0' },
	});
	if (visit.status !== 302) throw new Error(`GET /${code}: ${visit.status}`);
}

/** The batches a receiver path got, every attempt. */
export const batchesAt = (receiver: Receiver, path: string) =>
	receiver.received.filter(
		(delivery) =>
			delivery.path === `/${path}` && (delivery.event as { batch?: unknown }).batch === true,
	);

/** The events of a delivered batch. */
export const eventsOf = (delivery: { event: { data: Record<string, unknown> } }) =>
	delivery.event.data.events as Array<{
		id: string;
		type: string;
		createdAt: string;
		data: Record<string, unknown>;
	}>;

/** The open batches (not the records of the events they hold). */
export const openBatches = (store: Store) =>
	store.all('batches').filter((record): record is OpenBatchRecord => 'webhookId' in record);
