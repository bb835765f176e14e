/**
 * Send and Wait's controls (Allowed to Answer, After the Answer) run as real workflows through n8n-core: the exact
 * registration on the wire (nock), numbers read with the credential's Default Country and chat ids as numbers,
 * input mistakes refused before any request naming the field and the item; and against the sandbox, in a group,
 * a member not allowed is refused and told, the allowed one's tap answers, and the question then shows the answer
 * without its buttons. Resuming n8n with the answer is n8n's own machinery: e2e/send-and-wait-controls.test.mjs.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../dev/harness';
import { pendingAnswer } from '../support/answers';
import { nockOnly } from '../support/client';
import { byId, multichannelNode, startService, type TestService } from '../support/nodes';
import { raw, waitFor } from '../support/sandbox';

// The first run loads the package into n8n-core: 25 s and more on a loaded 2-core machine.
jest.setTimeout(120_000);

const BASE_URL = 'http://127.0.0.1:8792';
/** A group's chat, where Allowed to Answer chooses among its members. */
const GROUP = '120363000000000042@g.us';
const credentials = {
	multichannelApi: { baseUrl: BASE_URL, apiKey: 'mcw_test_controls', defaultCountry: 'US' },
};

/** The question, on an instance, to a chat, with the options under test. */
const sendAndWait = (options: IDataObject, instanceId = 'inst_1', to = '+1 415 555 0190') =>
	multichannelNode('message', {
		operation: 'sendAndWait',
		message: 'Refund $120 for order 1042?',
		instanceId: byId(instanceId),
		to,
		options,
	});

describe('on the wire', () => {
	// nock patches Node's http for the whole worker: undone when this describe ends (test/nodes/quiet.test.ts).
	afterAll(() => nock.restore());
	nockOnly();

	function service(registrations: IDataObject[], questions: IDataObject[] = []) {
		nock(BASE_URL)
			.post('/api/v1/instances/inst_1/answers')
			.reply(201, (_uri, body) => {
				registrations.push(body as IDataObject);
				return pendingAnswer((body as IDataObject).expiresAt);
			})
			.post('/api/v1/instances/inst_1/messages/buttons')
			.reply(201, (_uri, body) => {
				questions.push(body as IDataObject);
				return { id: 'msg_q1', instanceId: 'inst_1' };
			});
	}

	// The one group rule and the one list rule (src/client/chat-ids.ts, lists.ts), as the trigger's Chats filter
	// reads them too (test/nodes/chat-rules.test.ts): this was "not a valid phone number" before issue 46.
	test('a group written in capitals is that group, and a semicolon separates two people', async () => {
		const registrations: IDataObject[] = [];
		const questions: IDataObject[] = [];
		service(registrations, questions);
		const result = await runNode(
			sendAndWait(
				{ allowedToAnswer: '+14155550161; +442079460958' },
				'inst_1',
				GROUP.toUpperCase(),
			),
			{ credentials, executionId: '1046' },
		);
		expect(result.error).toBeUndefined();
		expect(questions[0].to).toBe(GROUP);
		expect(registrations[0].allowedToAnswer).toEqual(['+14155550161', '+442079460958']);
	});

	test('sends who may answer, as numbers, and asks for the question to show the answer', async () => {
		const registrations: IDataObject[] = [];
		service(registrations);
		const result = await runNode(
			sendAndWait(
				{
					allowedToAnswer: '(415) 555-0161; 14155550162@s.whatsapp.net, +1 415 555 0161',
					afterAnswer: 'showAnswer',
				},
				'inst_1',
				GROUP,
			),
			{ credentials, executionId: '1042' },
		);
		expect(result.error).toBeUndefined();
		expect(registrations).toHaveLength(1);
		expect(registrations[0].allowedToAnswer).toEqual(['+14155550161', '+14155550162']);
		expect(registrations[0].afterAnswer).toEqual({ editQuestion: true, removeButtons: true });
	});

	test('a person who hides their number: the question goes to their contact ID, and their @username may answer', async () => {
		const registrations: IDataObject[] = [];
		const questions: IDataObject[] = [];
		service(registrations, questions);
		const result = await runNode(
			sendAndWait({ allowedToAnswer: '@Maria.Lopez, +1 415 555 0161' }, 'inst_1', 'ct_5a1c9e7f'),
			{ credentials, executionId: '1043' },
		);
		expect(result.error).toBeUndefined();
		expect(registrations[0]).toMatchObject({
			to: 'ct_5a1c9e7f',
			allowedToAnswer: ['@Maria.Lopez', '+14155550161'],
		});
		expect(questions[0].to).toBe('ct_5a1c9e7f');
	});

	test('in a chat with one person, naming that person is allowed (written as the To field or not)', async () => {
		const registrations: IDataObject[] = [];
		service(registrations);
		const result = await runNode(sendAndWait({ allowedToAnswer: '(415) 555-0190' }), {
			credentials,
			executionId: '1042',
		});
		expect(result.error).toBeUndefined();
		expect(registrations[0].allowedToAnswer).toEqual(['+14155550190']);
	});

	test('in a chat with one person, naming only others is refused before any request: nobody could answer', async () => {
		// No interceptor: any request would fail the run with another error.
		const result = await runNode(sendAndWait({ allowedToAnswer: '+1 415 555 0161' }), {
			credentials,
			executionId: '1042',
		});
		expect(result.error?.message).toBe(
			'Invalid value for "Allowed to Answer" [item 0]: the question goes to +14155550190, a chat with one person, where only they can answer: add +14155550190, or leave the field empty',
		);
		expect(result.run.waitTill).toBeUndefined();
	});

	test('without the options, the registration carries neither field', async () => {
		const registrations: IDataObject[] = [];
		service(registrations);
		const result = await runNode(sendAndWait({ afterAnswer: 'keep' }), {
			credentials,
			executionId: '1042',
		});
		expect(result.error).toBeUndefined();
		expect(registrations[0]).not.toHaveProperty('allowedToAnswer');
		expect(registrations[0]).not.toHaveProperty('afterAnswer');
	});

	test.each([
		['a word', 'the manager', 'Invalid value for "Allowed to Answer" [item 0]'],
		[
			'a username too short',
			'+14155550161, @ma',
			'Invalid value for "Allowed to Answer" [item 0]: "@ma" is not a valid username: after the @ come 3 to 35',
		],
		[
			'a group',
			'120363000000000001@g.us',
			'Invalid value for "Allowed to Answer" [item 0]: 120363000000000001@g.us is a group',
		],
		[
			'too many people',
			Array.from({ length: 51 }, (_, n) => `+1415555${String(1000 + n)}`).join(','),
			'Invalid value for "Allowed to Answer" [item 0]: at most 50 people',
		],
	])('%s in Allowed to Answer: refused before any request', async (_, allowedToAnswer, message) => {
		// No interceptor: any request would fail the run with another error.
		const result = await runNode(sendAndWait({ allowedToAnswer }), {
			credentials,
			executionId: '1042',
		});
		expect(result.error?.message).toContain(message);
		expect(result.run.waitTill).toBeUndefined();
	});
});

describe('against the sandbox', () => {
	let service: TestService;
	beforeAll(async () => {
		service = await startService();
	});
	afterAll(async () => await service.close());

	test('in a group, only the allowed member answers, and the question then shows it', async () => {
		const instance = await service.connectedInstance('Approvals', '+14155550260');
		const manager = '+14155550261';
		const member = '+14155550262';
		const group = await service.client.groups.create({
			instanceId: instance.id,
			body: { subject: 'Refunds', participants: [manager, member] },
		});
		const result = await runNode(
			sendAndWait(
				{ allowedToAnswer: '(415) 555-0261', afterAnswer: 'showAnswer' },
				instance.id,
				group.id,
			),
			{
				credentials: {
					multichannelApi: { ...service.credentials.multichannelApi, defaultCountry: 'US' },
				},
				executionId: '1043',
			},
		);
		expect(result.error).toBeUndefined();
		const [registration] = (await service.client.answers.list({ instanceId: instance.id })).data;
		expect(registration).toMatchObject({
			allowedToAnswer: [manager],
			afterAnswer: { editQuestion: true, removeButtons: true },
			status: 'waiting',
		});
		const questionId = registration.messageId as string;
		const tap = (from: string, id: string) =>
			raw(
				service.sandbox.baseUrl,
				'POST',
				`/sandbox/instances/${instance.id}/messages/${questionId}/tap`,
				{
					key: service.apiKey,
					body: { id, from },
				},
			);
		const chat = async () =>
			(await service.client.messages.list({ instanceId: instance.id, query: { chatId: group.id } }))
				.data;

		expect((await tap(member, 'approve')).status).toBe(201);
		const note = await waitFor(
			async () =>
				(await chat()).find(
					(message) => message.content?.text === `Only ${manager} can answer this.`,
				),
			10_000,
			'the note to the member',
		);
		expect(note.direction).toBe('outbound');
		expect(
			(await service.client.answers.get({ instanceId: instance.id, answerId: registration.id }))
				.status,
		).toBe('waiting');

		expect((await tap(manager, 'approve')).status).toBe(201);
		const question = await waitFor(
			async () => {
				const message = await service.client.messages.get({
					instanceId: instance.id,
					messageId: questionId,
				});
				return message.editedAt ? message : undefined;
			},
			10_000,
			'the question edited',
		);
		expect(question.type).toBe('text');
		expect(question.content).toEqual({
			text: expect.stringMatching(
				/^Refund \$120 for order 1042\?\n\nAnswered: Approve, by \+14155550261 at /,
			),
		});
		expect((await tap(member, 'decline')).status).toBe(409);
	});
});
