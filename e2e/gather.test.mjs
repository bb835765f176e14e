// Gathered messages in a real n8n (issue 26): a Multichannel Trigger with "Gather Messages From the Same Chat"
// (quiet period 3 s) starts once for a burst, with its messages in order; two chats written to in turn start it
// twice, once per chat; a gathered event delivered again starts nothing more. Black-box: executions through n8n's
// public API, messages and redeliveries through the sandbox. In a single n8n and in queue mode (PostgreSQL, Redis,
// main, webhook process, worker).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { eventually, log, nodeOutput, useStack } from './support/harness.mjs';
import { collectPages } from '../dev/stack/stack.mjs';

const TRIGGER = 'Messages';

function gatherScenarios(ctx, label) {
	let contact = 14155553300 + (label === 'queue' ? 50 : 0);
	const nextContact = () => `+${++contact}`;

	/** Activates a workflow of the gathering trigger; finds its webhook at the sandbox. */
	async function watch() {
		let path;
		const { created } = await ctx.activateFixture('gather.json', (workflow) => {
			path = `/webhook/${workflow.nodes[0].webhookId}/webhook`;
			return workflow;
		});
		const hook = await eventually('the webhook at the sandbox', async () => {
			const hooks = await collectPages((cursor) =>
				ctx.workspace('GET', `/api/v1/webhooks?limit=100${cursor ? `&cursor=${cursor}` : ''}`),
			);
			return hooks.find((candidate) => candidate.url.endsWith(path));
		});
		assert.deepEqual(hook.gather, { quietSeconds: 3, maxWaitSeconds: 60 });
		return { workflowId: created.id, webhookId: hook.id };
	}

	const write = (from, text) =>
		ctx.workspace('POST', `/sandbox/instances/${ctx.stack.instance.id}/inbound`, { from, text });

	/** The trigger's items of every execution, once `expected` finished and nothing changed for a while. */
	async function settle(watched, expected) {
		const executions = await ctx.settledExecutions(watched.workflowId, expected);
		return executions
			.map((execution) => ({ status: execution.status, items: nodeOutput(execution, TRIGGER) }))
			.reverse();
	}

	const texts = (item) => item.data.messages.map((message) => message.content.text);

	describe(label, () => {
		test(`${label}: 3 messages 1 s apart, quiet period 3 s: one execution with the 3 in order`, async () => {
			const watched = await watch();
			const from = nextContact();
			for (const text of ['hi', 'I ordered yesterday', 'where is it?']) {
				await write(from, text);
				await sleep(1_000);
			}
			const runs = await settle(watched, 1);
			await ctx.deactivate(watched.workflowId);
			log(`measured ${label}: ${runs.length} execution(s) for a burst of 3`);
			assert.equal(runs.length, 1, JSON.stringify(runs));
			assert.equal(runs[0].status, 'success');
			assert.equal(runs[0].items.length, 1);
			const [item] = runs[0].items;
			assert.equal(item.type, 'message.received');
			assert.equal(item.data.gathered, true);
			assert.equal(item.data.from, from);
			assert.deepEqual(texts(item), ['hi', 'I ordered yesterday', 'where is it?']);
		});

		test(`${label}: two chats written to in turn: two executions, one per chat`, async () => {
			const watched = await watch();
			const [anna, ben] = [nextContact(), nextContact()];
			for (const [from, text] of [
				[anna, 'anna 1'],
				[ben, 'ben 1'],
				[anna, 'anna 2'],
				[ben, 'ben 2'],
			]) {
				await write(from, text);
				await sleep(1_000);
			}
			const runs = await settle(watched, 2);
			await ctx.deactivate(watched.workflowId);
			assert.equal(runs.length, 2, JSON.stringify(runs));
			const byContact = Object.fromEntries(
				runs.map((run) => [run.items[0].data.from, run.items[0]]),
			);
			assert.deepEqual(texts(byContact[anna]), ['anna 1', 'anna 2']);
			assert.deepEqual(texts(byContact[ben]), ['ben 1', 'ben 2']);
		});

		test(`${label}: a gathered event delivered again starts nothing more`, async () => {
			const watched = await watch();
			const from = nextContact();
			await write(from, 'once');
			await write(from, 'and again');
			await settle(watched, 1);
			const deliveries = await collectPages((cursor) =>
				ctx.workspace(
					'GET',
					`/api/v1/webhooks/${watched.webhookId}/deliveries?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
				),
			);
			const gathered = deliveries.filter((delivery) => delivery.eventType === 'message.received');
			assert.equal(gathered.length, 1, 'one gathered event was delivered');
			const { statuses } = await ctx.workspace(
				'POST',
				`/sandbox/webhooks/${watched.webhookId}/redeliver`,
				{ eventId: gathered[0].eventId, copies: 3 },
			);
			log(`measured ${label}: redeliveries of the gathered event answered ${statuses}`);
			assert.ok(statuses.includes(200), `n8n took a redelivery: ${statuses}`);
			const runs = await settle(watched, 1);
			await ctx.deactivate(watched.workflowId);
			assert.equal(runs.length, 1, JSON.stringify(runs));
			assert.deepEqual(texts(runs[0].items[0]), ['once', 'and again']);
		});
	});
}

describe('gathered messages in a single n8n', { timeout: 600_000 }, () => {
	gatherScenarios(useStack(), 'single');
});

describe('gathered messages in queue mode', { timeout: 600_000 }, () => {
	gatherScenarios(useStack({ queue: true }), 'queue');
});
