/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- made-up keys the tests look for in outputs */
/**
 * Message → Send and Wait for Response, run as real workflows through n8n-core: the exact requests (the
 * one-shot answer registration, pending, with n8n's signed resume URL and the derived secret, then the question
 * that names it, so that no answer can come before the registration), the
 * execution put to wait until the limit, what the node outputs if the wait ends unanswered, and input mistakes
 * refused before any request. Resuming with an answer is n8n's own machinery: e2e/send-and-wait.test.mjs.
 */
import { createHmac } from 'node:crypto';
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../dev/harness';
import { pendingAnswer } from '../support/answers';
import { nockOnly } from '../support/client';
import {
	byId,
	expectNoSecrets,
	multichannelNode,
	NODE_NAME,
	registerToolVariant,
} from '../support/nodes';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

const BASE_URL = 'http://127.0.0.1:8791';
const API_KEY = 'mcw_test_wait_4321';
const EXECUTION_ID = '1042';
const credentials = { multichannelApi: { baseUrl: BASE_URL, apiKey: API_KEY } };
/** The secret the node derives for this execution and node (nodes/Multichannel/actions/message/sendAndWait/answer.ts). */
const SECRET = createHmac('sha256', API_KEY)
	.update(`n8n-nodes-multichannel:answer:${EXECUTION_ID}:node-under-test`)
	.digest('hex');

const run = (parameters: IDataObject, items?: IDataObject[]) =>
	runNode(
		multichannelNode('message', {
			instanceId: byId('inst_1'),
			operation: 'sendAndWait',
			to: '+1 415 555 0190',
			message: 'Refund $120 for order 1042?',
			...parameters,
		}),
		{ credentials, items, executionId: EXECUTION_ID },
	);

interface Seen {
	path: string;
	body: IDataObject;
	key: unknown;
}
function service(kind: string, seen: Seen[]) {
	const record = (path: string) =>
		function (this: nock.ReplyFnContext, _uri: string, body: nock.Body) {
			seen.push({ path, body: body as IDataObject, key: this.req.headers['idempotency-key'] });
		};
	nock(BASE_URL)
		.post(`/api/v1/instances/inst_1/messages/${kind}`)
		.reply(function (uri, body) {
			record(kind).call(this, uri, body);
			return [201, { id: 'msg_q1', instanceId: 'inst_1', chatId: '14155550190@s.whatsapp.net' }];
		})
		.post('/api/v1/instances/inst_1/answers')
		.reply(function (uri, body) {
			record('answers').call(this, uri, body);
			const { expiresAt } = body as { expiresAt: string };
			return [201, pendingAnswer(expiresAt)];
		});
}

nockOnly();

test('Approval: sends the buttons, registers the answer with the signed resume URL, and waits', async () => {
	const seen: Seen[] = [];
	service('buttons', seen);
	const before = Date.now();

	const result = await run(
		{
			approvalOptions: { values: { approveLabel: 'Yes, refund', disapproveLabel: 'No' } },
			options: {
				limitWaitTime: {
					values: { limitType: 'afterTimeInterval', resumeAmount: 10, resumeUnit: 'minutes' },
				},
			},
		},
		[{ order: 1042 }, { order: 1043 }],
	);

	expect(result.error).toBeUndefined();
	// Registered first, pending; the question names the registration, which the service binds in the same step.
	expect(seen.map((request) => request.path)).toEqual(['answers', 'buttons']);
	expect(seen[1].body).toEqual({
		to: '+14155550190',
		text: 'Refund $120 for order 1042?',
		buttons: [
			{ id: 'approve', title: 'Yes, refund' },
			{ id: 'decline', title: 'No' },
		],
		answerRegistrationId: 'ans_1',
	});
	const registration = seen[0].body;
	expect(registration).toEqual({
		to: '+14155550190',
		reference: expect.stringMatching(/^n8n-[0-9a-f]{64}$/),
		accepts: ['reply'],
		url: expect.any(String),
		secret: SECRET,
		expiresAt: expect.any(String),
	});
	const url = new URL(registration.url as string);
	expect(`${url.origin}${url.pathname}`).toBe(
		`http://localhost:5678/webhook-waiting/${EXECUTION_ID}/node-under-test`,
	);
	expect(url.searchParams.get('question')).toBe(registration.reference);
	expect(url.searchParams.has('messageId')).toBe(false);
	expect(url.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
	expect(seen.every((request) => typeof request.key === 'string')).toBe(true);
	expect(seen[0].key).not.toBe(seen[1].key);

	// n8n's own waiting: the execution waits until the limit, which is also when the registration ends.
	const waitTill = result.run.waitTill as Date;
	expect(waitTill.getTime()).toBeGreaterThanOrEqual(before + 10 * 60_000);
	expect(waitTill.getTime()).toBeLessThan(Date.now() + 10 * 60_000 + 1);
	expect(Date.parse(registration.expiresAt as string)).toBe(waitTill.getTime());
	// One question per execution, from the first item.
	expect(result.json(NODE_NAME)).toEqual([
		{
			waitingForAnswer: true,
			messageId: 'msg_q1',
			registrationId: 'ans_1',
			expiresAt: registration.expiresAt,
		},
	]);
	// What the node outputs if n8n ends the wait unanswered (it then passes on its stack entry's items).
	const waiting = result.run.data.executionData?.nodeExecutionStack[0];
	expect(waiting?.node.name).toBe(NODE_NAME);
	expect(waiting?.data.main).toEqual([
		[
			{
				json: {
					approved: false,
					timedOut: true,
					answer: null,
					from: null,
					answeredAt: null,
					respondedAt: null,
					messageId: 'msg_q1',
				},
				pairedItem: { item: 0 },
			},
		],
	]);
	expectNoSecrets(result, [API_KEY, SECRET]);
});

test('Choice as a list, Free Text as a text: what is sent and what answers it', async () => {
	const seen: Seen[] = [];
	service('list', seen);
	const choice = await run({
		responseType: 'choice',
		choices: {
			values: [
				{ title: 'Morning', id: 'am', description: '9–12' },
				{ title: 'Afternoon' },
				{ title: 'Evening', id: 'pm' },
			],
		},
		listButtonText: 'Pick a slot',
	});
	expect(choice.error).toBeUndefined();
	expect(seen[1].body).toEqual({
		to: '+14155550190',
		text: 'Refund $120 for order 1042?',
		buttonText: 'Pick a slot',
		sections: [
			{
				rows: [
					{ id: 'am', title: 'Morning', description: '9–12' },
					{ id: 'Afternoon', title: 'Afternoon' },
					{ id: 'pm', title: 'Evening' },
				],
			},
		],
		answerRegistrationId: 'ans_1',
	});
	expect(seen[0].body.accepts).toEqual(['reply']);
	// Without a limit: the longest the service keeps a question, 30 days.
	const days = ((choice.run.waitTill as Date).getTime() - Date.now()) / 86_400_000;
	expect(days).toBeGreaterThan(29.99);
	expect(days).toBeLessThanOrEqual(30);

	const texts: Seen[] = [];
	service('text', texts);
	const freeText = await run({ responseType: 'freeText' });
	expect(freeText.error).toBeUndefined();
	expect(texts[1].body).toEqual({
		to: '+14155550190',
		text: 'Refund $120 for order 1042?',
		answerRegistrationId: 'ans_1',
	});
	expect(texts[0].body.accepts).toEqual(['text']);
	expect(freeText.run.data.executionData?.nodeExecutionStack[0].data.main[0]?.[0].json).toEqual({
		timedOut: true,
		answer: null,
		from: null,
		answeredAt: null,
		respondedAt: null,
		messageId: 'msg_q1',
	});
});

test.each([
	[
		'four choices as buttons',
		{
			responseType: 'choice',
			choiceFormat: 'buttons',
			choices: { values: [{ title: 'a' }, { title: 'b' }, { title: 'c' }, { title: 'd' }] },
		},
		'Invalid value for "Show Choices As" [item 0]: buttons hold up to 3 choices (found 4); show them as a list',
	],
	[
		'two choices with the same id',
		{
			responseType: 'choice',
			choices: {
				values: [
					{ title: 'a', id: 'x' },
					{ title: 'b', id: 'x' },
				],
			},
		},
		'Invalid value for "Choices" [item 0]: "x" is used by two choices',
	],
	[
		'a limit past 30 days',
		{
			options: {
				limitWaitTime: {
					values: { limitType: 'afterTimeInterval', resumeAmount: 31, resumeUnit: 'days' },
				},
			},
		},
		'Invalid value for "Limit Wait Time" [item 0]: the wait must end in the future and within 30 days',
	],
	['an impossible number', { to: 'call me' }, 'Invalid value for "To" [item 0]'],
])(
	'%s: refused before any request, naming the field and the item',
	async (_, parameters, message) => {
		const result = await run(parameters);
		expect(result.error?.message).toContain(message);
		expect(result.run.waitTill).toBeUndefined();
	},
);

test('one choice or eleven: n8n shows the limit in the editor and does not run the workflow', async () => {
	const choices = (count: number) => ({
		responseType: 'choice',
		choiceFormat: 'list',
		choices: { values: Array.from({ length: count }, (_, n) => ({ title: `Choice ${n}` })) },
	});
	await expect(run(choices(1))).rejects.toThrow('At least 2 fields are required.');
	await expect(run(choices(11))).rejects.toThrow('At most 10 fields are allowed.');
});

test('as an AI agent’s plain tool it refuses, pointing at the human review tool; the human review tool waits', async () => {
	const plainTool = (await registerToolVariant('Tool')).type;
	const reviewTool = (await registerToolVariant('HitlTool')).type;
	const asType = (type: string) =>
		runNode(
			{
				...multichannelNode('message', {
					instanceId: byId('inst_1'),
					operation: 'sendAndWait',
					to: '+1 415 555 0190',
					message: 'May the agent refund order 1042?',
				}),
				type,
			},
			{ credentials, executionId: EXECUTION_ID },
		);

	const plain = await asType(plainTool);
	expect(plain.error?.message).toBe(
		'Send and Wait for Response cannot pause an AI agent when called as a tool',
	);
	expect(plain.run.waitTill).toBeUndefined();

	const seen: Seen[] = [];
	service('buttons', seen);
	const review = await asType(reviewTool);
	expect(review.error).toBeUndefined();
	expect(seen.map((request) => request.path)).toEqual(['answers', 'buttons']);
	expect(review.run.waitTill).toBeInstanceOf(Date);
});
