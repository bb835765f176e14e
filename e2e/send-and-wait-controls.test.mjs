// Send and Wait's controls in a real n8n (2.41.1; the package installed as a community package): the example
// examples/approve-refund.json, started by a Webhook node, asks its question in a group with Allowed to Answer (the
// manager) and After the Answer: Edit the Question to Show the Answer. A member not listed taps first: they are told
// in the group that they cannot answer, and the execution keeps waiting; the manager taps: it resumes with the
// manager as `from`; the question then shows the outcome without its buttons, and a later tap is refused.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { eventually, exampleWithWebhook, nodeOutput, useStack } from './support/harness.mjs';
import { prepareWorkflow } from '../dev/stack/stack.mjs';

const ASK = 'Ask the manager';
const MANAGER = '+14155552301';
const MEMBER = '+14155552302';
const CUSTOMER = '+14155552303';

describe('Send and Wait for Response: Allowed to Answer and After the Answer, in a group', () => {
	const ctx = useStack();

	const instancePath = () => `/api/v1/instances/${ctx.stack.instance.id}`;
	const tap = (messageId, id, from, status = 201) =>
		ctx.workspace(
			'POST',
			`/sandbox/instances/${ctx.stack.instance.id}/messages/${messageId}/tap`,
			{ id, from },
			status,
		);
	const groupMessages = async (groupId) =>
		(await ctx.workspace('GET', `${instancePath()}/messages?chatId=${groupId}&limit=100`)).data;
	const executions = async (workflowId) => await ctx.executions(workflowId, true);

	test(
		'a member not listed is told and the workflow waits on; the manager’s tap resumes it; the question shows it',
		{ timeout: 180_000 },
		async () => {
			const group = await ctx.workspace('POST', `${instancePath()}/groups`, {
				subject: 'Refunds',
				participants: [MANAGER, MEMBER],
			});
			const path = `refund-${randomUUID().slice(0, 8)}`;
			const workflow = exampleWithWebhook('approve-refund.json', {
				start: 'Refund requested',
				path,
				change: (node) => {
					if (node.name === 'Refund details') {
						const details = {
							order: path,
							amount: '$120.00',
							reason: 'Damaged',
							customer: CUSTOMER,
						};
						return {
							...node,
							parameters: { ...node.parameters, jsonOutput: JSON.stringify(details) },
						};
					}
					if (node.name !== ASK) return node;
					const options = {
						...node.parameters.options,
						// As a person types it, in the credential's Default Country (the stack's: none, so with +1).
						allowedToAnswer: '+1 (415) 555-2301',
						afterAnswer: 'showAnswer',
					};
					return { ...node, parameters: { ...node.parameters, to: group.id, options } };
				},
			});
			const created = await ctx.api(
				'POST',
				'/workflows',
				prepareWorkflow(workflow, {
					credentials: ctx.stack.credentials,
					instance: ctx.stack.instance,
				}),
			);
			await ctx.activate(created.id);
			const started = await ctx.postToWebhook(path, {});
			assert.equal(started.status, 200, started.text);

			const question = await ctx.outboundTo(group.id);
			assert.equal(question.type, 'buttons');
			const waiting = () =>
				eventually('the execution to wait', async () => {
					const [execution, ...more] = await executions(created.id);
					assert.equal(more.length, 0);
					return execution?.status === 'waiting' && execution;
				});
			await waiting();

			// The member taps first: not taken, told in the group, and the execution keeps waiting.
			await tap(question.id, 'approve', MEMBER);
			const note = await eventually('the note to the member', async () =>
				(await groupMessages(group.id)).find(
					(message) => message.content?.text === `Only ${MANAGER} can answer this.`,
				),
			);
			assert.equal(note.direction, 'outbound');
			await sleep(3_000);
			await waiting();
			const [registration] = (await ctx.workspace('GET', `${instancePath()}/answers`)).data;
			assert.equal(registration?.status, 'waiting');
			assert.deepEqual(registration.allowedToAnswer, [MANAGER]);

			// The manager taps: the execution resumes with the manager's answer.
			await tap(question.id, 'approve', MANAGER);
			const execution = await eventually(
				'the execution to finish',
				async () => {
					const [latest] = await executions(created.id);
					return latest?.status === 'success' && latest;
				},
				60_000,
			);
			const [output] = nodeOutput(execution, ASK);
			assert.equal(output.approved, true);
			assert.equal(output.from, MANAGER);

			// The question shows the outcome, its buttons gone; a later tap is refused.
			const shown = await eventually('the question edited', async () => {
				const message = await ctx.workspace('GET', `${instancePath()}/messages/${question.id}`);
				return message.editedAt && message;
			});
			assert.equal(shown.type, 'text');
			assert.deepEqual(Object.keys(shown.content), ['text']);
			assert.match(
				shown.content.text,
				new RegExp(
					`\\n\\nAnswered: Approve refund, by \\${MANAGER} at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`,
				),
			);
			const again = await tap(question.id, 'decline', MEMBER, 409);
			assert.equal(again.error?.code, 'question_answered');
			assert.equal((await executions(created.id)).length, 1);
		},
	);
});
