// Chat labels in a real n8n (issue 36): a Multichannel Trigger on Chat Labels Changed, filtered to one label put on
// a chat, starts exactly once when that label is put on a chat through the API, not for another label nor for the
// label taken off, and the change delivered again (3 copies) starts nothing more. Black-box: executions through
// n8n's public API, labels and redeliveries through the sandbox. In a single n8n and in queue mode.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { eventually, log, nodeOutput, useStack } from './support/harness.mjs';
import { collectPages } from '../dev/stack/stack.mjs';

const TRIGGER = 'Labels';
const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);
const QUIET_MS = 3_000;

function labelScenario(ctx, label) {
	test(`${label}: a label put on a chat starts the trigger once; another label, a removal and redeliveries do not`, async () => {
		const instanceId = ctx.stack.instance.id;
		const from = label === 'queue' ? '+14155553461' : '+14155553451';
		const chatId = `${from.slice(1)}@s.whatsapp.net`;
		await ctx.workspace('POST', `/sandbox/instances/${instanceId}/inbound`, { from, text: 'help' });
		const suffix = `${label}-${Date.now()}`;
		const escalated = await ctx.workspace('POST', '/api/v1/labels', {
			name: `Escalated ${suffix}`,
		});
		const other = await ctx.workspace('POST', '/api/v1/labels', { name: `Other ${suffix}` });

		let path;
		const { created } = await ctx.activateFixture('labels.json', (workflow) => {
			workflow.nodes[0].parameters.options.labelIds = [escalated.id];
			path = `/webhook/${workflow.nodes[0].webhookId}/webhook`;
			return workflow;
		});
		const hook = await eventually('the webhook at the sandbox', async () => {
			const hooks = await collectPages((cursor) =>
				ctx.workspace('GET', `/api/v1/webhooks?limit=100${cursor ? `&cursor=${cursor}` : ''}`),
			);
			return hooks.find((candidate) => candidate.url.endsWith(path));
		});

		const onChat = (labelId) => `/api/v1/instances/${instanceId}/chats/${chatId}/labels/${labelId}`;
		await ctx.workspace('POST', onChat(other.id));
		await ctx.workspace('POST', onChat(escalated.id));
		await ctx.workspace('DELETE', onChat(escalated.id));

		const deliveries = async () =>
			await collectPages((cursor) =>
				ctx.workspace(
					'GET',
					`/api/v1/webhooks/${hook.id}/deliveries?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
				),
			);
		await eventually(
			'3 label changes delivered',
			async () => (await deliveries()).length >= 3,
			90_000,
		);

		/** Executions once at least one finished and nothing changed for a while. */
		let previous = '';
		let stableSince = Date.now();
		await eventually(
			'the execution to settle',
			async () => {
				const executions = await ctx.executions(created.id);
				const seen = executions.map((execution) => `${execution.id}:${execution.status}`).join();
				if (seen !== previous) [previous, stableSince] = [seen, Date.now()];
				return (
					executions.length >= 1 &&
					executions.every((execution) => FINISHED.has(execution.status)) &&
					Date.now() - stableSince >= QUIET_MS
				);
			},
			90_000,
		);
		const runs = await ctx.executions(created.id, true);
		assert.equal(runs.length, 1, JSON.stringify(runs.map((run) => run.status)));
		const [item] = nodeOutput(runs[0], TRIGGER);
		assert.equal(item.type, 'chat.labels_changed');
		assert.equal(item.data.chatId, chatId);
		assert.deepEqual(
			item.data.added.map(({ id }) => id),
			[escalated.id],
		);
		assert.deepEqual(item.data.labels.map(({ id }) => id).sort(), [other.id, escalated.id].sort());

		// The change delivered again, 3 copies: acknowledged, nothing more runs.
		const { statuses } = await ctx.workspace('POST', `/sandbox/webhooks/${hook.id}/redeliver`, {
			eventId: item.id,
			copies: 3,
		});
		log(`measured ${label}: redeliveries of the label change answered ${statuses}`);
		stableSince = Date.now();
		await eventually(
			'no new execution',
			async () => Date.now() - stableSince >= QUIET_MS * 2,
			30_000,
		);
		const after = await ctx.executions(created.id);
		await ctx.deactivate(created.id);
		assert.equal(after.length, 1, `executions after redelivery: ${after.length}`);
	});
}

describe('chat labels in a single n8n', { timeout: 300_000 }, () => {
	labelScenario(useStack(), 'single');
});

describe('chat labels in queue mode', { timeout: 300_000 }, () => {
	labelScenario(useStack({ queue: true }), 'queue');
});
