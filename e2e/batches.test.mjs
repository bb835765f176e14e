// Batched deliveries in a real n8n (issue 37): a Short Link Trigger with Batch Events 100 / 5 s on one link. 250
// clicks through the sandbox's own redirect are 3 executions holding 250 items, each click once; a batch delivered
// again (2 copies) runs nothing more; a batch still open when the sandbox is killed (kill -9) is delivered once
// after it starts again. Black-box: executions through n8n's public API, clicks and redeliveries through the
// sandbox. One n8n process and queue mode (2.x and 1.x). In the one process also: 260 automation events of 65 KB
// (17 MB, past n8n's 16 MiB request limit were they one batch) run once each, in batches under 4 MiB.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { BROWSER_UA, eventually, log, nodeOutput, useStack } from './support/harness.mjs';
import { collectPages } from '../dev/stack/stack.mjs';

const TRIGGER = 'Clicks';
/** Clicks at once: the first 100 must come within the 5 s Max Wait, even on a loaded machine. */
const PARALLEL = 10;

/** `count` clicks on the short URL, `PARALLEL` at a time; each must be redirected. */
async function click(shortUrl, count) {
	let left = count;
	const worker = async () => {
		while (left > 0) {
			left--;
			const response = await fetch(shortUrl, {
				redirect: 'manual',
				headers: { 'user-agent': BROWSER_UA },
			});
			assert.equal(response.status, 302);
		}
	};
	await Promise.all(Array.from({ length: PARALLEL }, worker));
}

/** Items per execution, oldest execution first, each execution successful. */
function itemsOf(runs) {
	for (const run of runs) assert.equal(run.status, 'success', `execution ${run.id}: ${run.status}`);
	return [...runs].reverse().map((run) => nodeOutput(run, TRIGGER));
}

/** How many items each execution had, largest first (two full batches may run side by side). */
const sizes = (batches) => batches.map((items) => items.length).sort((a, b) => b - a);

function batchScenario(ctx, label) {
	test(`${label}: 250 clicks are 3 executions, each click once; a batch redelivered runs nothing more; an open batch survives a sandbox crash`, async () => {
		const link = await ctx.shortLinks('POST', '/api/v1/links', {
			url: 'https://example.com/viral',
		});
		let path;
		const { created } = await ctx.activateFixture('batches.json', (workflow) => {
			workflow.nodes[0].parameters.linkIds = [link.id];
			path = `/webhook/${workflow.nodes[0].webhookId}/webhook`;
			return workflow;
		});
		const hook = await eventually('the link webhook at the sandbox', async () => {
			const hooks = await collectPages((cursor) =>
				ctx.shortLinks(
					'GET',
					`/api/v1/link-webhooks?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
				),
			);
			return hooks.find((candidate) => candidate.url.endsWith(path));
		});
		assert.deepEqual(hook.batch, { maxEvents: 100, maxWaitSeconds: 5 });
		/** The batches delivered to the webhook: their event ids. */
		const batchIds = async () => {
			const deliveries = await collectPages((cursor) =>
				ctx.shortLinks(
					'GET',
					`/api/v1/link-webhooks/${hook.id}/deliveries?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
				),
			);
			const batched = deliveries.filter((delivery) => delivery.eventType === 'link.batch');
			return [...new Set(batched.map((delivery) => delivery.eventId))];
		};

		// 1. 250 clicks: batches of 100, 100 and 50 (the last after Max Wait).
		const started = Date.now();
		await click(link.shortUrl, 250);
		log(`measured ${label}: 250 clicks through the redirect in ${Date.now() - started} ms`);
		const runs = await ctx.settledExecutions(created.id, 3);
		const batches = itemsOf(runs);
		assert.deepEqual(sizes(batches), [100, 100, 50]);
		const items = batches.flat();
		assert.equal(new Set(items.map((item) => item.id)).size, 250, 'each click once');
		for (const item of items) {
			assert.equal(item.type, 'link.clicked');
			assert.equal(item.data.click.linkId, link.id);
		}
		const delivered = await batchIds();
		assert.equal(delivered.length, 3, `batches delivered: ${delivered}`);

		// 2. A batch delivered again, 2 copies: acknowledged, nothing more runs.
		const { statuses } = await ctx.workspace('POST', `/sandbox/webhooks/${hook.id}/redeliver`, {
			eventId: delivered[0],
			copies: 2,
		});
		log(`measured ${label}: redeliveries of a batch answered ${statuses}`);
		const afterRedelivery = await ctx.settledExecutions(created.id, 3);
		assert.equal(
			afterRedelivery.length,
			3,
			`executions after redelivery: ${afterRedelivery.length}`,
		);

		// 3. 7 clicks, then the sandbox killed before Max Wait: the open batch is delivered once after the restart.
		const opened = Date.now();
		await click(link.shortUrl, 7);
		assert.equal(
			(await batchIds()).length,
			3,
			'the batch is still open when the sandbox is killed',
		);
		await ctx.stack.sandbox.restart({ crash: true });
		log(
			`measured ${label}: the sandbox killed ${Date.now() - opened} ms after the batch opened, and back`,
		);
		const afterRestart = await ctx.settledExecutions(created.id, 4);
		const all = itemsOf(afterRestart);
		assert.deepEqual(sizes(all), [100, 100, 50, 7]);
		assert.equal(new Set(all.flat().map((item) => item.id)).size, 257, 'each click once');
		assert.equal((await batchIds()).length, 4);
		await ctx.deactivate(created.id);
	});
}

/** Events of 65 KB (about the most a payload holds), enough to pass n8n's request limit (N8N_PAYLOAD_SIZE_MAX,
 * 16 MiB) if batched whole. */
const LARGE_EVENTS = 260;
const FILLER = 'x'.repeat(65_000);

function byteBoundScenario(ctx) {
	test(`single: ${LARGE_EVENTS} events of 65 KB in batches of 1000 run once each; no batch passes n8n's request limit`, async () => {
		const { created } = await ctx.activateFixture('exactly-once.json', (workflow) => {
			workflow.name = 'e2e: large events in batches';
			workflow.nodes[0].parameters.eventNames = 'large';
			workflow.nodes[0].parameters.options = {
				batch: { settings: { maxEvents: 1000, maxWaitSeconds: 1 } },
			};
			return workflow;
		});
		const started = Date.now();
		let next = 0;
		const publisher = async () => {
			for (let n = next++; n < LARGE_EVENTS; n = next++) {
				await ctx.automation('POST', '/api/v1/automation/events', {
					name: 'large',
					payload: { n, filler: FILLER },
				});
			}
		};
		// The webhook is registered once the workflow is published; events before that reach no one.
		await eventually('the automation webhook', async () => {
			const hooks = await ctx.automation('GET', '/api/v1/automation/webhooks?limit=100');
			return hooks.data.find((hook) => hook.batch?.maxEvents === 1000);
		});
		await Promise.all(Array.from({ length: PARALLEL }, publisher));
		log(`measured single: ${LARGE_EVENTS} events of 65 KB published in ${Date.now() - started} ms`);
		// 64 events fill a batch short of 4 MiB: at least 5 batches.
		const runs = await ctx.settledExecutions(created.id, Math.ceil(LARGE_EVENTS / 64), {
			quietMs: 1000,
		});
		for (const run of runs)
			assert.equal(run.status, 'success', `execution ${run.id}: ${run.status}`);
		const numbers = runs.flatMap((run) =>
			nodeOutput(run, 'Event').map((item) => item.data.payload.n),
		);
		assert.equal(numbers.length, LARGE_EVENTS, 'every event once');
		assert.equal(new Set(numbers).size, LARGE_EVENTS, 'every event once');
		log(
			`measured single: ${LARGE_EVENTS} events of 65 KB in ${runs.length} executions, ${Date.now() - started} ms`,
		);
		await ctx.deactivate(created.id);
	});
}

describe('link clicks in batches in a single n8n', { timeout: 420_000 }, () => {
	const ctx = useStack();
	batchScenario(ctx, 'single');
	byteBoundScenario(ctx);
});

describe('link clicks in batches in queue mode', { timeout: 420_000 }, () => {
	batchScenario(useStack({ queue: true }), 'queue');
});
