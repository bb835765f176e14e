// Poll votes and calls in a real n8n (the package installed as a community package): a workflow of one Multichannel
// Trigger on Poll Voted and Call Received; a contact votes on a poll the instance sent, then calls (the sandbox's
// vote and call simulations). Each starts the trigger exactly once: one successful execution per event, counted
// through n8n's public API, with the vote's and the call's data in its item.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { eventually, nodeOutput, useStack } from './support/harness.mjs';
import { prepareWorkflow } from '../dev/stack/stack.mjs';

const ctx = useStack();
const CONTACT = '+14155550181';
const workflowJson = () =>
	JSON.parse(readFileSync(new URL('./workflows/polls-calls.json', import.meta.url), 'utf8'));

describe('poll votes and calls in a real n8n', () => {
	test('a vote and a call each start the Multichannel Trigger once', { timeout: 180_000 }, async () => {
		const { stack } = ctx;
		const instance = stack.instance;
		const workflow = await ctx.api(
			'POST',
			'/workflows',
			prepareWorkflow(workflowJson(), { credentials: stack.credentials, instance }),
		);
		await ctx.activate(workflow.id);
		await eventually('the trigger to register its webhook', async () => {
			const page = await ctx.workspace('GET', '/api/v1/webhooks');
			return page.data.some((hook) => hook.url.startsWith(stack.n8n.webhookUrl));
		});
		const poll = await ctx.workspace('POST', `/api/v1/instances/${instance.id}/messages/poll`, {
			to: CONTACT,
			question: 'How did we do?',
			options: ['Great', 'Fine', 'Poor'],
		});
		await ctx.workspace('POST', `/sandbox/instances/${instance.id}/messages/${poll.id}/vote`, {
			options: ['Great'],
		});
		const items = async () =>
			(await ctx.executions(workflow.id, true)).map((run) => [
				run.status,
				nodeOutput(run, 'Vote or call')[0],
			]);
		const [[voteStatus, vote]] = await eventually('the vote execution', async () => {
			const runs = await items();
			return runs.length >= 1 && runs.every(([status]) => status === 'success') && runs;
		});
		assert.equal(voteStatus, 'success');
		assert.equal(vote.type, 'poll.voted');
		assert.deepEqual(vote.data.options, [{ index: 0, name: 'Great' }]);
		assert.equal(vote.data.messageId, poll.id);

		const call = await ctx.workspace('POST', `/sandbox/instances/${instance.id}/calls`, {
			from: CONTACT,
			media: 'video',
		});
		const runs = await eventually('the call execution', async () => {
			const all = await items();
			return all.length >= 2 && all.every(([status]) => status === 'success') && all;
		});
		const calls = runs.filter(([, item]) => item.type === 'call.received');
		assert.equal(calls.length, 1);
		assert.equal(calls[0][1].data.id, call.id);
		assert.equal(calls[0][1].data.media, 'video');
		// Give a second execution of either the time to appear: there is none.
		await new Promise((resolve) => setTimeout(resolve, 3000));
		assert.equal((await ctx.executions(workflow.id)).length, 2);
		await ctx.deactivate(workflow.id);
	});
});
