// Several example workflows active at once on one instance, in a real n8n (the package installed as a community
// package), as a user runs them after `npm start`: approve-refund (Send and Wait) and confirm-appointment (reply
// buttons), each started by a Webhook node here (n8n's public API cannot run a Manual Trigger), with
// appointment-answers, receive-files and auto-reply active beside them. The manager's answer to the refund question (in words, so that auto-reply
// would take it too) resumes only approve-refund (the service marks it `answeredQuestion`, and the triggers leave
// it alone); the contact's tap on the appointment
// buttons starts only appointment-answers (its trigger takes Reply IDs `appointment-*`, the other two take no taps).
// Nobody gets an answer meant for another workflow. Everything is read through n8n's public API and the sandbox.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';

import { eventually, exampleWithWebhook, nodeOutput, useStack } from './support/harness.mjs';
import { prepareWorkflow } from '../dev/stack/stack.mjs';

const ctx = useStack();

const MANAGER = '+14155552301';
const CUSTOMER = '+14155552302';
/** The contact confirm-appointment sends its buttons to. */
const ANA = '+14155550171';

/** Outbound messages of the instance to `to`, oldest first. */
async function messagesTo(to) {
	const page = await ctx.workspace(
		'GET',
		`/api/v1/instances/${ctx.stack.instance.id}/messages?limit=100`,
	);
	return page.data
		.filter((message) => message.direction === 'outbound' && message.to === to)
		.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

const tap = (messageId, id) =>
	ctx.workspace('POST', `/sandbox/instances/${ctx.stack.instance.id}/messages/${messageId}/tap`, {
		id,
	});

async function created(workflow) {
	const { stack } = ctx;
	const made = await ctx.api(
		'POST',
		'/workflows',
		prepareWorkflow(workflow, { credentials: stack.credentials, instance: stack.instance }),
	);
	await ctx.activate(made.id);
	return made.id;
}

describe('several workflows on one instance', () => {
	test(
		'a tap reaches only the workflow it was meant for, with four examples active at once',
		{ timeout: 300_000 },
		async () => {
			const refundPath = `refund-${randomUUID().slice(0, 8)}`;
			const appointmentPath = `ask-${randomUUID().slice(0, 8)}`;
			const refund = await created(
				exampleWithWebhook('approve-refund.json', {
					start: 'Refund requested',
					path: refundPath,
					change: (node) =>
						node.name === 'Ask the manager'
							? // Answered in words: a text, which auto-reply would answer but for the mark.
								{ ...node, parameters: { ...node.parameters, responseType: 'freeText' } }
							: node.name === 'Refund details'
								? {
										...node,
										parameters: {
											...node.parameters,
											jsonOutput: JSON.stringify({
												order: '1042',
												amount: '$120.00',
												reason: 'Damaged',
												customer: CUSTOMER,
												manager: MANAGER,
											}),
										},
									}
								: node,
				}),
			);
			const appointment = await created(
				exampleWithWebhook('confirm-appointment.json', { start: 'Ask', path: appointmentPath }),
			);
			const answers = ctx.example('appointment-answers.json');
			await ctx.activate(answers);
			const files = ctx.example('receive-files.json');
			const autoReply = ctx.example('auto-reply.json');
			await ctx.activate(files);
			await ctx.activate(autoReply);
			await eventually('the three triggers to register their webhooks', async () => {
				const page = await ctx.workspace('GET', '/api/v1/webhooks');
				return page.data.length === 3;
			});

			// 1. The refund question; the manager answers in words: approve-refund resumes and tells the customer.
			assert.equal((await ctx.postToWebhook(refundPath, {})).status, 200);
			const [question] = await eventually('the question to the manager', async () => {
				const sent = await messagesTo(MANAGER);
				return sent.length === 1 && sent;
			});
			await eventually('the answer registration', async () => {
				const page = await ctx.workspace(
					'GET',
					`/api/v1/instances/${ctx.stack.instance.id}/answers`,
				);
				return page.data.some((entry) => entry.messageId === question.id);
			});
			const approval = await ctx.workspace(
				'POST',
				`/sandbox/instances/${ctx.stack.instance.id}/inbound`,
				{ from: MANAGER, text: 'Fine by me, refund it' },
			);
			const [told] = await eventually('the customer to be told', async () => {
				const sent = await messagesTo(CUSTOMER);
				return sent.length === 1 && sent;
			});
			assert.match(told.content.text, /^About your refund for order 1042/);
			// The answer is sent before the execution is saved as finished.
			const [resumed] = await eventually('the refund execution to finish', async () => {
				const runs = await ctx.executions(refund, true);
				return runs.length === 1 && runs[0].status === 'success' && runs;
			});
			assert.equal(nodeOutput(resumed, 'Ask the manager')[0].answer.text, 'Fine by me, refund it');
			const taken = await ctx.workspace(
				'GET',
				`/api/v1/instances/${ctx.stack.instance.id}/messages/${approval.id}`,
			);
			assert.deepEqual(taken.answeredQuestion, {
				registrationId: taken.answeredQuestion.registrationId,
				messageId: question.id,
			});

			// 2. The appointment buttons; Ana taps "Move it": only appointment-answers answers.
			assert.equal((await ctx.postToWebhook(appointmentPath, {})).status, 200);
			const [buttons] = await eventually('the buttons to Ana', async () => {
				const sent = await messagesTo(ANA);
				return sent.length === 1 && sent;
			});
			const moved = await tap(buttons.id, 'appointment-move');
			const [, answer] = await eventually('the answer to the tap', async () => {
				const sent = await messagesTo(ANA);
				return sent.length === 2 && sent;
			});
			assert.equal(answer.content.text, 'No problem: we will call you to find another time.');
			assert.equal(answer.content.quotedMessageId, moved.id);

			// 3. Time for anything else to happen; nothing does.
			await new Promise((resolve) => setTimeout(resolve, 5000));
			assert.deepEqual(
				(await messagesTo(MANAGER)).map((message) => message.id),
				[question.id],
				'the manager got the question only',
			);
			assert.equal((await messagesTo(ANA)).length, 2, 'Ana got the buttons and one answer');
			assert.equal((await messagesTo(CUSTOMER)).length, 1);
			assert.equal((await ctx.executions(files)).length, 0, 'receive-files started for nothing');
			assert.equal((await ctx.executions(autoReply)).length, 0, 'auto-reply started for nothing');
			assert.equal((await ctx.executions(appointment)).length, 1, 'confirm-appointment: its start');
			const [tapRun, ...more] = await ctx.executions(answers, true);
			assert.equal(more.length, 0, 'appointment-answers: the tap only');
			assert.equal(nodeOutput(tapRun, 'Button tapped')[0].reply.id, 'appointment-move');
			assert.deepEqual(
				(await ctx.executions(refund)).map((run) => run.status),
				['success'],
			);

			for (const id of [refund, appointment, answers, files, autoReply]) await ctx.deactivate(id);
		},
	);
});
