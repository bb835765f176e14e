// Rich messages out, answers back in, in a real n8n (2.41.1, the package installed as a community package): the
// example examples/confirm-appointment.json, as `npm start` imports it, started by a Webhook node (n8n's public API
// cannot run its Manual Trigger), sends reply buttons with Message → Send Buttons; the contact taps "Move it" (the
// sandbox's tap simulation); the Multichannel Trigger (Only Replies) of examples/appointment-answers.json starts with
// the reply at the top level of its item, and the next node answers by the reply's id. A plain message from the contact starts nothing. Everything is
// read through n8n's public API and the sandbox.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';

import { eventually, exampleWithWebhook, nodeOutput, useStack } from './support/harness.mjs';
import { prepareWorkflow } from '../dev/stack/stack.mjs';

const ctx = useStack();

const CONTACT = '+14155550171';
const workflowOf = (path) => exampleWithWebhook('confirm-appointment.json', { start: 'Ask', path });
const answersOf = (path) => exampleWithWebhook('appointment-answers.json', { path });

describe('reply buttons in a real n8n', () => {
	test('the example is imported by the stack, as by npm start', () => {
		ctx.example('confirm-appointment.json');
		ctx.example('appointment-answers.json');
	});

	test(
		'buttons sent by a workflow, tapped at the sandbox, start the trigger with the reply at the top level',
		{ timeout: 180_000 },
		async () => {
			const { stack } = ctx;
			const instance = stack.instance;
			const path = `ask-${randomUUID().slice(0, 8)}`;
			const workflow = await ctx.api(
				'POST',
				'/workflows',
				prepareWorkflow(workflowOf(path), { credentials: stack.credentials, instance }),
			);
			await ctx.activate(workflow.id);
			const answers = await ctx.api(
				'POST',
				'/workflows',
				prepareWorkflow(answersOf(path), { credentials: stack.credentials, instance }),
			);
			await ctx.activate(answers.id);
			await eventually('the trigger to register its webhook', async () => {
				const page = await ctx.workspace('GET', '/api/v1/webhooks');
				return page.data.some((hook) => hook.url.startsWith(stack.n8n.webhookUrl));
			});

			// The executions that ran `node`: the webhook's run Send Buttons, the answers' trigger Answer the tap.
			const runsOf = async (node) =>
				(await Promise.all([workflow.id, answers.id].map((id) => ctx.executions(id, true))))
					.flat()
					.filter((run) => nodeOutput(run, node).length > 0);

			// 1. The workflow sends the buttons.
			assert.equal((await ctx.postToWebhook(path, {})).status, 200);
			const [asked] = await eventually('the Send Buttons execution', async () => {
				const runs = await runsOf('Send Buttons');
				return runs.length === 1 && runs[0].status === 'success' && runs;
			});
			const [sent] = nodeOutput(asked, 'Send Buttons');
			assert.equal(sent.type, 'buttons');
			assert.equal(sent.to, CONTACT);
			const stored = await ctx.workspace(
				'GET',
				`/api/v1/instances/${instance.id}/messages/${sent.id}`,
			);
			assert.deepEqual(stored.content.buttons, [
				{ id: 'appointment-confirm', title: 'Yes, see you' },
				{ id: 'appointment-move', title: 'Move it' },
			]);
			assert.equal(stored.content.header, 'Your appointment');

			// 2. A plain message from the contact starts nothing (Only Replies); then the contact taps "Move it".
			await ctx.workspace('POST', `/sandbox/instances/${instance.id}/inbound`, {
				from: CONTACT,
				text: 'Hi, a question first',
			});
			const tapped = await ctx.workspace(
				'POST',
				`/sandbox/instances/${instance.id}/messages/${sent.id}/tap`,
				{ id: 'appointment-move' },
			);
			const reply = {
				type: 'button',
				id: 'appointment-move',
				title: 'Move it',
				toMessageId: sent.id,
			};
			assert.deepEqual(tapped.reply, reply);

			// 3. One execution: the reply at the top level of the trigger's item; the answer chose by its id.
			const [run] = await eventually('the trigger execution of the tap', async () => {
				const runs = await runsOf('Button tapped');
				return runs.length >= 1 && runs.every((one) => one.status === 'success') && runs;
			});
			const [item] = nodeOutput(run, 'Button tapped');
			assert.equal(item.type, 'message.received');
			assert.deepEqual(item.reply, reply);
			assert.equal(item.data.id, tapped.id);
			const [answered] = nodeOutput(run, 'Answer the tap');
			const text = await ctx.workspace(
				'GET',
				`/api/v1/instances/${instance.id}/messages/${answered.id}`,
			);
			assert.equal(text.content.text, 'No problem: we will call you to find another time.');
			assert.equal(text.content.quotedMessageId, tapped.id);
			assert.equal(text.to, CONTACT);
			// Give a second execution (the plain message) the time to appear: there is none.
			await new Promise((resolve) => setTimeout(resolve, 2000));
			assert.equal((await runsOf('Button tapped')).length, 1);
			assert.equal((await ctx.executions(workflow.id)).length, 1);
			assert.equal((await ctx.executions(answers.id)).length, 1);

			await ctx.deactivate(workflow.id);
			await ctx.deactivate(answers.id);
		},
	);
});
