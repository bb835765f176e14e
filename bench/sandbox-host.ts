/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the benchmark runs in plain Node, never inside n8n (node:fs: the data file's size; process: IPC, exit, stderr) */
/**
 * The sandbox of a benchmark run, in a process of its own so that its work does not share an event loop (or
 * a heap) with what is measured. Started by bench/processes.ts; answers its requests over IPC:
 * `seedContacts` (straight into the store: 50,000 contacts in a moment instead of 50,000 requests),
 * `seedMessages` (copies of one sent message, straight into the store, for the cost of a send beside them),
 * `countMessages` (the outbound messages whose text starts with a prefix, to check that every send arrived
 * once), `seedBursts` (open bursts of a gathering webhook, one message each, held as an inbound message is) and
 * `close`.
 */
import { statSync } from 'node:fs';

import { createWorkspaceClient } from '../src/client';
import { startSandbox } from '../sandbox/server';
import { chatIdOf } from '../sandbox/channel/chat-ids';
import { newId } from '../sandbox/store/store';
import { undiciTransport } from '../dev/transports/undici';
import { benchChat, serve } from './lib';
import { churnUntilCompacted, parseCpuMs, snapshotMs } from './store-probe';

const latencyMs = Number(process.argv[2] ?? 20);
/** A data file makes the sandbox persistent (its journal), as `npm run sandbox -- --data-file` does. */
const dataFile = process.argv[3] || undefined;

async function main() {
	const started = process.hrtime.bigint();
	const cpuBefore = process.cpuUsage();
	const sandbox = await startSandbox({
		port: 0,
		latencyMs,
		rateLimit: false,
		dataFile,
		log: (message) => process.stderr.write(`${message}\n`),
	});
	const startedInMs = Number(process.hrtime.bigint() - started) / 1e6;
	const cpu = process.cpuUsage(cpuBefore);
	const startedCpuMs = (cpu.user + cpu.system) / 1000;
	// A sandbox started on an existing data file shows no keys: a new one is issued for the benchmark.
	const apiKey = sandbox.keys?.workspace ?? sandbox.issueKey({ kind: 'workspace' }).key;
	const client = createWorkspaceClient(undiciTransport(apiKey), { baseUrl: sandbox.baseUrl });

	// An instance that can send: create → connect (QR) → scan.
	const sender = await client.instances.create({ body: { name: 'Bench sender' } });
	await client.instances.connect({ instanceId: sender.id, body: { method: 'qr' } });
	const scan = await fetch(`${sandbox.baseUrl}/sandbox/instances/${sender.id}/scan`, {
		method: 'POST',
		headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
		body: JSON.stringify({ phoneNumber: '+14155550199' }),
	});
	if (scan.status >= 300) throw new Error(`scan: HTTP ${scan.status} ${await scan.text()}`);
	const addressBook = await client.instances.create({ body: { name: 'Bench contacts' } });

	serve(async (message) => {
		switch (message.kind) {
			case 'seedContacts': {
				const count = Number(message.count);
				const now = new Date().toISOString();
				for (let index = 0; index < count; index++) {
					sandbox.store.insert('contacts', {
						id: newId('ct'),
						workspaceId: sandbox.workspaceId,
						instanceId: addressBook.id,
						phoneNumber: `+1212${String(5_000_000 + index).padStart(7, '0')}`,
						name: `Contact ${index}`,
						email: `contact${index}@example.com`,
						tags: index % 3 === 0 ? ['customer'] : [],
						blocked: false,
						createdAt: now,
						updatedAt: now,
					});
				}
				return { instanceId: addressBook.id, count };
			}
			case 'seedMessages': {
				const template = sandbox.store.get('messages', String(message.templateId));
				if (!template) throw new Error(`No message ${String(message.templateId)} to copy`);
				const count = Number(message.count);
				for (let index = 0; index < count; index++) {
					sandbox.store.insert('messages', {
						...(JSON.parse(JSON.stringify(template)) as typeof template),
						id: newId('msg'),
					});
				}
				return { stored: sandbox.store.all('messages', () => true).length };
			}
			case 'countMessages': {
				const prefix = String(message.prefix);
				const texts = sandbox.store
					.all(
						'messages',
						(record) =>
							record.direction === 'outbound' &&
							String((record.content as { text?: string }).text ?? '').startsWith(prefix),
					)
					.map((record) => (record.content as { text: string }).text);
				return { total: texts.length, distinct: new Set(texts).size };
			}
			case 'seedBursts': {
				const webhook = sandbox.store.get('webhooks', String(message.webhookId));
				if (!webhook?.gather) throw new Error(`No gathering webhook ${String(message.webhookId)}`);
				const { from, count } = message as unknown as { from: number; count: number };
				const createdAt = new Date().toISOString();
				for (let index = from; index < from + count; index++) {
					const phone = benchChat(index);
					const held = sandbox.core.deliveries.gathering.hold(webhook, {
						id: newId('evt'),
						type: 'message.received',
						createdAt,
						workspaceId: sandbox.workspaceId,
						data: {
							...{ id: newId('msg'), direction: 'inbound', instanceId: sender.id },
							...{ chatId: chatIdOf(phone), from: phone, type: 'text', content: { text: 'seed' } },
						},
					});
					if (!held) throw new Error('The seeded message was not held');
				}
				const open = sandbox.store.all('bursts', (record) => 'webhookId' in record).length;
				return { open };
			}
			case 'churnUntilCompacted':
				return await churnUntilCompacted(sandbox, String(dataFile), Number(message.batch));
			case 'snapshotMs':
				return snapshotMs(sandbox);
			case 'dataFileBytes':
				return { bytes: statSync(String(dataFile)).size };
			case 'parseCpuMs':
				return parseCpuMs(String(dataFile));
			case 'close':
				await sandbox.close();
				setImmediate(() => process.exit(0));
				return {};
			default:
				throw new Error(`Unknown request ${String(message.kind)}`);
		}
	});
	process.send?.({
		kind: 'ready',
		baseUrl: sandbox.baseUrl,
		apiKey,
		senderId: sender.id,
		startedInMs,
		startedCpuMs,
	});
}

main().catch((error: Error) => {
	process.stderr.write(`sandbox host: ${error.stack ?? String(error)}\n`);
	process.exit(1);
});
