/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals -- made-up keys the tests look for in outputs; test code runs in plain Node (timers in nock replies) */
/**
 * The Message resource of the Multichannel node on the wire, with nock: the exact request, the idempotency
 * key, bounded concurrency and rate-limit pacing. The same operations against the sandbox are in
 * message.test.ts.
 */
import { createHash } from 'node:crypto';
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../dev/harness';
import { nockOnly } from '../support/client';
import { sleep, waitFor } from '../support/waiting';
import { byId, expectNoSecrets, multichannelNode, NODE_NAME } from '../support/nodes';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

describe('Message on the wire (nock)', () => {
	const BASE_URL = 'http://127.0.0.1:8789';
	const API_KEY = 'mcw_test_wire_5678';
	const credentials = { multichannelApi: { baseUrl: BASE_URL, apiKey: API_KEY } };
	const wireNode = (parameters: IDataObject) =>
		multichannelNode('message', { instanceId: byId('inst_1'), ...parameters });
	const sent = (to: string, id = 'msg_1') => ({
		id,
		instanceId: 'inst_1',
		to,
		type: 'text',
		status: 'sent',
	});

	/** Send Text, 3 items at a time, of `count` items: item n sends "n<n>" to +1415555010<n>. */
	const sendTexts = async (count: number) =>
		await runNode(
			wireNode({
				operation: 'sendText',
				to: '={{ $json.phone }}',
				text: '={{ $json.text }}',
				options: { concurrency: 3 },
			}),
			{
				credentials,
				items: Array.from({ length: count }, (_, index) => ({
					phone: `+1415555010${index}`,
					text: `n${index}`,
				})),
			},
		);
	/** The item a request of `sendTexts` was sent for. */
	const itemOf = (body: unknown) => Number((body as { text: string }).text.slice(1));

	nockOnly();

	test('Send Text: exact request, with the derived Idempotency-Key', async () => {
		const seen: Array<{ headers: IDataObject; body: unknown }> = [];
		nock(BASE_URL)
			.post('/api/v1/instances/inst_1/messages/text')
			.reply(function (_uri, body) {
				seen.push({ headers: this.req.headers, body });
				return [201, sent('+14155550123')];
			});

		const result = await runNode(
			wireNode({
				operation: 'sendText',
				to: '00 1 415 555 0123',
				text: 'Hello',
				options: { quotedMessageId: 'msg_0', previewUrl: true },
			}),
			{ credentials },
		);

		const body = { to: '+14155550123', text: 'Hello', quotedMessageId: 'msg_0', previewUrl: true };
		// The derivation documented in nodes/shared/idempotency.ts: the workflow, the node's id, the item's position
		// and JSON, what is sent; not the execution (the harness's workflow and node ids, one empty item).
		const key = `n8n-${createHash('sha256')
			.update(
				JSON.stringify([
					'workflow',
					'harness-workflow',
					'node-under-test',
					0,
					{},
					'sendText',
					{ instanceId: 'inst_1', body },
				]),
			)
			.digest('hex')}`;
		expect(result.error).toBeUndefined();
		expect(seen).toEqual([
			{
				headers: expect.objectContaining({
					authorization: `Bearer ${API_KEY}`,
					'content-type': 'application/json',
					'idempotency-key': key,
				}),
				body,
			},
		]);
		expect(result.json(NODE_NAME)).toEqual([sent('+14155550123')]);
		expectNoSecrets(result, [API_KEY]);
	});

	test('To takes the chatId a received message carries: a person as the number, a group as it is; a person who hides their number by contact ID, @username or …@lid', async () => {
		const seen: unknown[] = [];
		nock(BASE_URL)
			.post('/api/v1/instances/inst_1/messages/text')
			.times(5)
			.reply((_uri, body) => {
				seen.push((body as { to: string }).to);
				return [201, sent((body as { to: string }).to)];
			});

		const result = await runNode(
			wireNode({ operation: 'sendText', to: '={{ $json.chatId }}', text: 'Hi' }),
			{
				credentials,
				items: [
					{ chatId: '14155550123@s.whatsapp.net' },
					{ chatId: '120363000000000000@g.us' },
					{ chatId: ' ct_5a1c9e7f3b2d4a60 ' },
					{ chatId: '@Maria.Lopez' },
					{ chatId: '123456789012345@LID' },
				],
			},
		);

		expect(result.error).toBeUndefined();
		expect(seen).toEqual([
			'+14155550123',
			'120363000000000000@g.us',
			'ct_5a1c9e7f3b2d4a60',
			'@Maria.Lopez',
			'123456789012345@lid',
		]);
	});

	test('To: a username without its @ is no number, refused naming To and the item before any request', async () => {
		const refused = await runNode(
			wireNode({ operation: 'sendText', to: 'maria.lopez', text: 'Hi' }),
			{ credentials },
		);
		expect(String(refused.error?.message)).toMatch(/To.*item 0|item 0.*To/s);
	});

	test('Concurrency: items overlap up to the option, and outputs keep input order', async () => {
		// Answers are held until three requests are in flight (or every item left is), whatever the time a loaded
		// machine takes to start an item; then the newest is answered first, so answers come out of input order.
		const count = 6;
		const held: Array<() => void> = [];
		let answered = 0;
		let most = 0;
		const full = () => held.length === 3 || held.length === count - answered;
		let answering = false;
		async function answerWhenFull() {
			if (answering) return;
			answering = true;
			while (held.length > 0) {
				// Without overlap it would never fill: the deadline then lets the run end, and `most` tells.
				// 15 s: a loaded 2-core machine took over 3 s to start the third item (most was 2).
				await waitFor(() => full(), 15_000, 'three requests in flight').catch(() => undefined);
				// Room for a request beyond the limit to show up before one is answered.
				await sleep(50);
				held.pop()?.();
			}
			answering = false;
		}
		nock(BASE_URL)
			.post('/api/v1/instances/inst_1/messages/text')
			.times(count)
			.reply((_uri, body, callback) => {
				const index = itemOf(body);
				held.push(() => {
					answered++;
					callback(null, [201, sent(`+1415555010${index}`, `msg_${index}`)]);
				});
				most = Math.max(most, held.length);
				void answerWhenFull();
			});

		const result = await sendTexts(count);

		expect(result.error).toBeUndefined();
		expect(result.output(NODE_NAME).map((item) => [item.json.id, item.pairedItem])).toEqual(
			Array.from({ length: count }, (_, index) => [`msg_${index}`, { item: index }]),
		);
		expect(most).toBe(3);
	}, 120_000);

	test('Concurrency: a failed item stops the run; the items in flight finish, no new one starts', async () => {
		const requested: number[] = [];
		nock(BASE_URL)
			.persist() // answers every request, so that one that should not have been sent is counted
			.post('/api/v1/instances/inst_1/messages/text')
			.reply((_uri, body, callback) => {
				const index = itemOf(body);
				requested.push(index);
				const answer: [number, IDataObject] =
					index === 1
						? [
								400,
								{
									error: {
										code: 'validation_failed',
										message: 'The text is not allowed',
										details: [{ field: 'body.text', message: 'not allowed' }],
									},
								},
							]
						: [201, sent(`+1415555010${index}`, `msg_${index}`)];
				// The failure comes back first; the other two are still in flight when it does.
				void new Promise((resolve) => setTimeout(resolve, index === 1 ? 10 : 80)).then(() =>
					callback(null, answer),
				);
			});

		const result = await sendTexts(8);

		expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '400' });
		expect(result.error?.message).toContain('[item 1]');
		expect(requested.sort()).toEqual([0, 1, 2]);
	});

	test('when the key has no requests left, the next item waits for the reset instead of hitting 429', async () => {
		const times: number[] = [];
		const resetAt = Math.ceil(Date.now() / 1000) + 1;
		nock(BASE_URL)
			.post('/api/v1/instances/inst_1/messages/text')
			.reply(() => {
				times.push(Date.now());
				return [
					201,
					sent('+14155550101'),
					{
						'X-RateLimit-Limit': '1',
						'X-RateLimit-Remaining': '0',
						'X-RateLimit-Reset': String(resetAt),
					},
				];
			});
		nock(BASE_URL)
			.post('/api/v1/instances/inst_1/messages/text')
			.reply(() => {
				times.push(Date.now());
				return [201, sent('+14155550102', 'msg_2')];
			});

		const result = await runNode(
			wireNode({
				operation: 'sendText',
				to: '={{ $json.phone }}',
				text: 'Paced',
				options: { concurrency: 1 },
			}),
			{ credentials, items: [{ phone: '+14155550101' }, { phone: '+14155550102' }] },
		);

		expect(result.error).toBeUndefined();
		expect(times).toHaveLength(2);
		expect(times[1]).toBeGreaterThanOrEqual(resetAt * 1000 - 5);
		expect(result.json(NODE_NAME).map((item) => item.id)).toEqual(['msg_1', 'msg_2']);
	});
});
