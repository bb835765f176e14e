/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals -- made-up keys the tests look for in outputs; the test reads the time zone n8n runs in */
/**
 * Send At on the sends and the Scheduled Message resource (Get Many, Cancel), run as real workflows through
 * n8n-core against the sandbox, plus nock tests pinning `sendAt` on the wire and the time-zone rule.
 */
import nock from 'nock';
import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../dev/harness';
import { nockOnly } from '../support/client';
import { waitFor } from '../support/sandbox';
import {
	byId,
	failure,
	multichannelNode,
	NODE_NAME,
	runWithFiles,
	startService,
	type TestService,
} from '../support/nodes';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

const MINUTE = 60_000;

describe('Send At and Scheduled Message against the sandbox', () => {
	let service: TestService;
	let instanceId: string;
	let clock = Date.parse('2026-11-26T09:00:00Z');
	beforeAll(async () => {
		service = await startService({ now: () => clock, scheduled: { tickMs: 50 } });
		instanceId = (await service.connectedInstance('Reminders')).id;
	});
	afterAll(async () => await service.close());
	const run = (resource: string, parameters: IDataObject) =>
		runNode(multichannelNode(resource, { instanceId: byId(instanceId), ...parameters }), {
			credentials: service.credentials,
		});

	test('Send Text with Send At is scheduled, listed, sent at its time; Cancel stops another and says why not twice', async () => {
		const sendAt = new Date(clock + 30 * MINUTE).toISOString();
		const sent = await run('message', {
			operation: 'sendText',
			to: '+14155550161',
			text: 'Your table is ready at 8',
			options: { sendAt },
		});
		expect(sent.error).toBeUndefined();
		const [scheduled] = sent.json(NODE_NAME);
		expect(scheduled).toMatchObject({ status: 'scheduled', sendAt });
		const other = (
			await run('message', {
				operation: 'sendLocation',
				to: '+14155550162',
				latitude: 52.5,
				longitude: 13.4,
				options: { sendAt: new Date(clock + 60 * MINUTE).toISOString() },
			})
		).json(NODE_NAME)[0];
		expect(other).toMatchObject({ status: 'scheduled', type: 'location' });

		const listed = await run('scheduled', { operation: 'getAll', returnAll: true });
		expect(listed.json(NODE_NAME).map((message) => message.id)).toEqual([scheduled.id, other.id]);

		const cancelled = await run('scheduled', { operation: 'cancel', messageId: other.id });
		expect(cancelled.json(NODE_NAME)[0]).toMatchObject({ id: other.id, status: 'cancelled' });
		const twice = await run('scheduled', { operation: 'cancel', messageId: other.id });
		expect(failure(twice).message + String(failure(twice).description)).toMatch(
			/already cancelled/,
		);

		clock += 31 * MINUTE;
		await waitFor(
			() => service.sandbox.events.find((event) => event.type === 'message.scheduled_sent'),
			10_000,
		);
		const went = await run('scheduled', {
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'sent' },
		});
		expect(went.json(NODE_NAME)).toEqual([
			expect.objectContaining({
				id: scheduled.id,
				sendAt,
				content: { text: 'Your table is ready at 8' },
			}),
		]);
		const tooLate = await run('scheduled', { operation: 'cancel', messageId: scheduled.id });
		expect(failure(tooLate).message + String(failure(tooLate).description)).toMatch(
			/cannot be cancelled/,
		);
	});

	test('a time too soon is refused naming Send At and the item', async () => {
		const result = await run('message', {
			operation: 'sendText',
			to: '+14155550161',
			text: 'Too soon',
			options: { sendAt: new Date(clock + 10_000).toISOString() },
		});
		const error = failure(result);
		// The headline names the field as the editor shows it, not the request's body.sendAt (issue 45, item 9).
		expect(error.message).toMatch(
			/^The Multichannel service refused the request \[item 0\]: The request is invalid: Send At: must be from 1 minute to 90 days ahead \(it is 10 s ahead; the service's time is [\d:.TZ-]+\)$/,
		);
		expect(error.description).toMatch(/Details: Send At: must be from 1 minute to 90 days ahead/);
	});
});

describe('Send At on the wire (nock)', () => {
	const BASE_URL = 'http://127.0.0.1:8791';
	const API_KEY = 'mcw_test_scheduled_3456';
	const credentials = { multichannelApi: { baseUrl: BASE_URL, apiKey: API_KEY } };
	const wireNode = (parameters: IDataObject) =>
		multichannelNode('message', { instanceId: byId('inst_1'), ...parameters });
	const answer = { id: 'msg_1', instanceId: 'inst_1', status: 'scheduled' };

	nockOnly();

	test('sendAt in the JSON body; a time without offset is read in the workflow time zone', async () => {
		const bodies: unknown[] = [];
		nock(BASE_URL)
			.post('/api/v1/instances/inst_1/messages/text')
			.times(2)
			.reply((_uri, body) => {
				bodies.push(body);
				return [201, answer];
			});
		for (const sendAt of ['2030-03-01T10:00:00+01:00', '2030-03-01T10:00:00']) {
			const result = await runNode(
				wireNode({ operation: 'sendText', to: '+14155550123', text: 'Hi', options: { sendAt } }),
				{ credentials },
			);
			expect(result.error).toBeUndefined();
		}
		expect(bodies).toEqual([
			{ to: '+14155550123', text: 'Hi', sendAt: '2030-03-01T10:00:00.000+01:00' },
			{
				to: '+14155550123',
				text: 'Hi',
				sendAt: DateTime.fromISO('2030-03-01T10:00:00', {
					zone: process.env.GENERIC_TIMEZONE ?? 'America/New_York',
				}).toISO(),
			},
		]);
	});

	test('Send Media upload: sendAt as a form field', async () => {
		const bodies: string[] = [];
		nock(BASE_URL)
			.post('/api/v1/instances/inst_1/messages/media/upload')
			.reply((_uri, body) => {
				bodies.push(String(body));
				return [201, answer];
			});
		const result = await runWithFiles(
			wireNode({
				operation: 'sendMedia',
				to: '+14155550123',
				options: { sendAt: '2030-03-01T10:00:00Z' },
			}),
			[{ data: Buffer.from('%PDF-1.4'), fileName: 'a.pdf', mimeType: 'application/pdf' }],
			credentials,
		);
		expect(result.error).toBeUndefined();
		expect(bodies[0]).toMatch(
			/Content-Disposition: form-data; name="sendAt"\r\n\r\n2030-03-01T10:00:00.000Z\r\n/,
		);
	});

	test('Scheduled Message: Get Many and Cancel', async () => {
		const scope = nock(BASE_URL)
			.get('/api/v1/instances/inst_1/scheduled-messages')
			.query({ limit: '100', status: 'scheduled', chatId: '+14155550124' })
			.reply(200, { data: [answer], nextCursor: null })
			.post('/api/v1/instances/inst_1/scheduled-messages/msg_1/cancel')
			.reply(200, { ...answer, status: 'cancelled' });
		const list = await runNode(
			multichannelNode('scheduled', {
				instanceId: byId('inst_1'),
				operation: 'getAll',
				returnAll: true,
				filters: { status: 'scheduled', chatId: '+1 415 555 0124' },
			}),
			{ credentials },
		);
		expect(list.json(NODE_NAME)).toEqual([answer]);
		const cancel = await runNode(
			multichannelNode('scheduled', {
				instanceId: byId('inst_1'),
				operation: 'cancel',
				messageId: 'msg_1',
			}),
			{ credentials },
		);
		expect(cancel.json(NODE_NAME)).toEqual([{ ...answer, status: 'cancelled' }]);
		expect(scope.isDone()).toBe(true);
	});
});
