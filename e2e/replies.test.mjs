// Rich messages out, answers back in, in a real n8n (2.40.7, the package installed as a community package): a
// workflow started by a webhook sends reply buttons with Message → Send Buttons; the contact taps one (the
// sandbox's tap simulation); the Multichannel Trigger (Only Replies) starts a workflow whose item has the reply at
// its top level, and its next node answers with the title tapped, read as {{ $json.reply.title }}. A plain
// message from the same contact starts nothing. Everything is read through n8n's public API and the sandbox.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';

import { eventually, nodeOutput, useStack } from './support/harness.mjs';
import { prepareWorkflow } from '../dev/stack/stack.mjs';

const ctx = useStack();

const CREDENTIALS = { multichannelApi: { id: '', name: 'Multichannel sandbox (workspace key)' } };
const CONTACT = '+14155550171';
const multichannel = (name, position, parameters) => ({
	parameters: { resource: 'message', ...parameters },
	id: randomUUID(),
	name,
	type: 'n8n-nodes-multichannel.multichannel',
	typeVersion: 1,
	position,
	credentials: CREDENTIALS,
});

/** Webhook (POST /ask-<id>) → Send Buttons to the number in the request. */
function askWorkflow(instanceId, path) {
	return {
		name: 'Ask with buttons (e2e)',
		nodes: [
			{
				parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
				id: randomUUID(),
				name: 'Start',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
			},
			multichannel('Send Buttons', [300, 0], {
				operation: 'sendButtons',
				instanceId: { __rl: true, mode: 'id', value: instanceId },
				to: '={{ $json.body.to }}',
				text: 'Is Tuesday at 10:00 still good?',
				buttons: {
					button: [
						{ title: 'Yes, see you', id: 'confirm' },
						{ title: 'Move it', id: 'move' },
					],
				},
				options: { header: 'Your appointment', footer: 'Dental Care Co.' },
			}),
		],
		connections: { Start: { main: [[{ node: 'Send Buttons', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** Multichannel Trigger (Only Replies) → a text back naming the button tapped. */
function replyWorkflow(instanceId) {
	return {
		name: 'Answer a tap (e2e)',
		nodes: [
			{
				parameters: {
					events: ['message.received'],
					instanceIds: [instanceId],
					options: { onlyReplies: true },
				},
				id: randomUUID(),
				name: 'Reply tapped',
				type: 'n8n-nodes-multichannel.multichannelTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId: randomUUID(),
				credentials: CREDENTIALS,
			},
			multichannel('Answer', [300, 0], {
				operation: 'sendText',
				instanceId: { __rl: true, mode: 'id', value: instanceId },
				to: '={{ $json.data.from }}',
				text: '=You chose: {{ $json.reply.title }} ({{ $json.reply.id }})',
			}),
		],
		connections: { 'Reply tapped': { main: [[{ node: 'Answer', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

describe('reply buttons in a real n8n', () => {
	test(
		'buttons sent by a workflow, tapped at the sandbox, start the trigger with the reply at the top level',
		{ timeout: 180_000 },
		async () => {
			const { stack } = ctx;
			const instance = stack.instance;
			const create = async (workflow) =>
				await ctx.api(
					'POST',
					'/workflows',
					prepareWorkflow(workflow, { credentials: stack.credentials, instance }),
				);
			const path = `ask-${randomUUID().slice(0, 8)}`;
			const ask = await create(askWorkflow(instance.id, path));
			const answer = await create(replyWorkflow(instance.id));
			await ctx.activate(ask.id);
			await ctx.activate(answer.id);
			await eventually('the trigger to register its webhook', async () => {
				const page = await ctx.workspace('GET', '/api/v1/webhooks');
				return page.data.some((hook) => hook.url.startsWith(stack.n8n.webhookUrl));
			});

			// 1. The workflow sends the buttons.
			assert.equal((await ctx.postToWebhook(path, { to: CONTACT })).status, 200);
			const [asked] = await eventually('the Send Buttons execution', async () => {
				const runs = await ctx.executions(ask.id, true);
				return runs.length === 1 && runs[0].status === 'success' && runs;
			});
			const [sent] = nodeOutput(asked, 'Send Buttons');
			assert.equal(sent.type, 'buttons');
			const stored = await ctx.workspace(
				'GET',
				`/api/v1/instances/${instance.id}/messages/${sent.id}`,
			);
			assert.deepEqual(stored.content.buttons, [
				{ id: 'confirm', title: 'Yes, see you' },
				{ id: 'move', title: 'Move it' },
			]);

			// 2. A plain message from the contact starts nothing (Only Replies); then the contact taps "Move it".
			await ctx.workspace('POST', `/sandbox/instances/${instance.id}/inbound`, {
				from: CONTACT,
				text: 'Hi, a question first',
			});
			const tapped = await ctx.workspace(
				'POST',
				`/sandbox/instances/${instance.id}/messages/${sent.id}/tap`,
				{ id: 'move' },
			);
			const reply = { type: 'button', id: 'move', title: 'Move it', toMessageId: sent.id };
			assert.deepEqual(tapped.reply, reply);

			// 3. One execution: the reply at the top level of the trigger's item; the answer read it there.
			const [run] = await eventually('the trigger execution of the tap', async () => {
				const runs = await ctx.executions(answer.id, true);
				return runs.length >= 1 && runs.every((one) => one.status === 'success') && runs;
			});
			const [item] = nodeOutput(run, 'Reply tapped');
			assert.equal(item.type, 'message.received');
			assert.deepEqual(item.reply, reply);
			assert.equal(item.data.id, tapped.id);
			const [answered] = nodeOutput(run, 'Answer');
			const text = await ctx.workspace(
				'GET',
				`/api/v1/instances/${instance.id}/messages/${answered.id}`,
			);
			assert.equal(text.content.text, 'You chose: Move it (move)');
			assert.equal(text.to, CONTACT);
			// Give a second execution (the plain message) the time to appear: there is none.
			await new Promise((resolve) => setTimeout(resolve, 2000));
			assert.equal((await ctx.executions(answer.id)).length, 1);

			await ctx.deactivate(answer.id);
			await ctx.deactivate(ask.id);
		},
	);
});
