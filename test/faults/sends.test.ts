/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code runs in plain Node (process.env: the fault seed to replay) */
/**
 * 500 sends through the Multichannel node (a real workflow run: Manual Trigger → Items → Multichannel, 500
 * items, Concurrency 10) while the service misbehaves: the sandbox answers 20% of requests 429 or 503 and drops
 * 5% of connections before processing them, and a proxy in front of it loses 5% of the answers to sends,
 * among them answers to sends the sandbox did carry out. The run must end with exactly 500 messages in the
 * sandbox, one per item: none lost (every retry ends in a send), none duplicated (a resent request carries
 * the same Idempotency-Key and is answered as a replay). A first test shows that the proxy's lost answers do
 * duplicate sends that are resent without a key, so the check can fail.
 *
 * The faults are drawn from a seeded generator; the seed is in the test name, `FAULT_SEED=<seed>` replays it.
 */
import type { IDataObject } from 'n8n-workflow';

import { raw } from '../support/sandbox';
import { runNode } from '../../dev/harness';
import {
	byId,
	multichannelNode,
	NODE_NAME,
	startService,
	type TestService,
} from '../support/nodes';
import {
	retries,
	retryReasons,
	seededRandom,
	startLossyProxy,
	useTestRetries,
	type LossyProxy,
} from '../support/faults';

// The node's client gets test retry options through `connectionDefaults` (nodes/shared/connections.ts): waits
// divided by 20 (Retry-After: 1 → 50 ms), and up to 8 retries instead of 3: at a 25% fault rate, 3 retries
// leave about 1 send in 256 failed (0.25⁴), so a 500-item run fails most of the time with the shipped
// defaults (it failed 3 runs out of 3 when tried: an item's 4th fault in a row stops the run with that
// item's error).
let restoreRetries: () => void;

const SENDS = 500;
const SEED = Number(process.env.FAULT_SEED ?? Date.now() % 100_000);

let service: TestService;
let proxy: LossyProxy;
let instance: { id: string; phoneNumber: string };

beforeAll(async () => {
	restoreRetries = useTestRetries({ retryBaseDelayMs: 20, maxRetries: 8, waitDivisor: 20 });
	service = await startService();
	instance = await service.connectedInstance('Faults');
	proxy = await startLossyProxy(service.sandbox.baseUrl, {
		loseShare: 0,
		applies: (req) => req.method === 'POST' && /\/messages\/text$/.test(req.url ?? ''),
		random: seededRandom(SEED + 1),
	});
});
afterAll(async () => {
	restoreRetries();
	await proxy?.close();
	await service?.close();
});

function items(tag: string): IDataObject[] {
	return Array.from({ length: SENDS }, (_, index) => ({
		ref: `${tag}-${index}`,
		phone: `+1415556${String(1000 + index).padStart(4, '0')}`,
	}));
}

function sendTextNode(extraOptions: IDataObject = {}) {
	return multichannelNode('message', {
		instanceId: byId(instance.id),
		operation: 'sendText',
		to: '={{ $json.phone }}',
		text: '=Order {{ $json.ref }} has shipped',
		options: { concurrency: 10, ...extraOptions },
	});
}

/** The outbound messages of the instance whose text names a ref of this tag, by ref. */
function storedByRef(tag: string): Map<string, string[]> {
	const byRef = new Map<string, string[]>();
	for (const message of service.sandbox.store.all(
		'messages',
		(record) => record.instanceId === instance.id && record.direction === 'outbound',
	)) {
		const text = (message.content as { text?: string }).text ?? '';
		const ref = new RegExp(`^Order (${tag}-\\d+) has shipped$`).exec(text)?.[1];
		if (ref) byRef.set(ref, [...(byRef.get(ref) ?? []), message.id]);
	}
	return byRef;
}

describe(`${SENDS} sends through the node under injected faults (seed ${SEED})`, () => {
	test('the proxy really loses answers of sends that took effect: resent without a key, they send twice', async () => {
		const path = `/api/v1/instances/${instance.id}/messages/text`;
		/** Sends, and sends again while the answer is lost, as a client that retries would. */
		const sendRetrying = async (tag: string, index: number, withKey: boolean) => {
			const body = { to: '+14155550142', text: `Order ${tag}-${index} has shipped` };
			const headers: Record<string, string> = withKey
				? { 'Idempotency-Key': `${tag}-${index}` }
				: {};
			for (let attempt = 0; attempt < 50; attempt++) {
				const answer = await raw(proxy.url, 'POST', path, {
					key: service.apiKey,
					body,
					headers,
				}).catch(() => undefined);
				if (answer) return answer;
			}
			throw new Error('no answer in 50 attempts');
		};
		proxy.loseShare = 0.5;
		try {
			for (let index = 0; index < 20; index++) await sendRetrying(`bare${SEED}`, index, false);
			for (let index = 0; index < 20; index++) await sendRetrying(`keyed${SEED}`, index, true);
		} finally {
			proxy.loseShare = 0;
		}
		const bare = storedByRef(`bare${SEED}`);
		expect(bare.size).toBe(20);
		expect([...bare.values()].some((ids) => ids.length > 1)).toBe(true);
		const keyed = storedByRef(`keyed${SEED}`);
		expect(keyed.size).toBe(20);
		expect([...keyed.values()].every((ids) => ids.length === 1)).toBe(true);
	});

	test('20% 429/503, 5% dropped connections, 5% lost answers: exactly one message per item', async () => {
		const tag = `faults${SEED}`;
		service.sandbox.setFaults({
			rateLimited: 0.1,
			unavailable: 0.1,
			dropped: 0.05,
			random: seededRandom(SEED),
		});
		proxy.loseShare = 0.05;
		Object.assign(proxy, { forwarded: 0, lostAnswers: 0, lostSuccesses: 0, replayed: 0 });
		retries.length = 0;
		try {
			const result = await runNode(sendTextNode(), {
				credentials: {
					multichannelApi: { baseUrl: proxy.url, apiKey: service.apiKey },
				},
				items: items(tag),
			});

			expect(result.error).toBeUndefined();
			const output = result.output(NODE_NAME);
			expect(output).toHaveLength(SENDS);
			expect(output.map((item) => item.pairedItem)).toEqual(
				Array.from({ length: SENDS }, (_, item) => ({ item })),
			);
		} finally {
			service.sandbox.setFaults({});
			proxy.loseShare = 0;
		}

		const stored = storedByRef(tag);
		const duplicated = [...stored].filter(([, ids]) => ids.length > 1);
		const missing = items(tag).filter((item) => !stored.has(item.ref as string));
		expect({ duplicated, missing }).toEqual({ duplicated: [], missing: [] });
		expect(stored.size).toBe(SENDS);

		// The faults did happen, of every kind, and every lost answer was resent and answered as a replay.
		const reasons = retryReasons();
		expect(reasons).toMatchObject({
			'HTTP 429': expect.any(Number),
			'HTTP 503': expect.any(Number),
			connection_error: expect.any(Number),
		});
		expect(proxy.lostSuccesses).toBeGreaterThan(5);
		expect(proxy.replayed).toBeGreaterThanOrEqual(proxy.lostSuccesses);
	}, 60_000);

	test('each output is the message the sandbox stored for that item', async () => {
		// Without faults, a second run of the same items is answered from the idempotency records: same ids.
		const tag = `faults${SEED}`;
		const result = await runNode(sendTextNode(), {
			credentials: { multichannelApi: { baseUrl: proxy.url, apiKey: service.apiKey } },
			items: items(tag),
		});
		const stored = storedByRef(tag);
		expect(stored.size).toBe(SENDS);
		expect(result.json(NODE_NAME).map((item) => item.id)).toEqual(
			items(tag).map((item) => stored.get(item.ref as string)?.[0]),
		);
	}, 60_000);
});
