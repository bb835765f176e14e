// Nothing lost over a deployment's life (issue 32), in n8n 2.x's queue mode (PostgreSQL, Redis, main, a webhook
// process behind a round-robin balancer, a worker): for every event the service accepted, exactly one successful
// execution (e2e/support/lifetime-count.mjs), as e2e/lifetime.test.mjs counts in one n8n process. Retries 0.2 s,
// 0.4 s … (6 attempts, about 5 s), a disabled webhook pinged every 2 s to 5 s.
//   1. kill -9 of the webhook process at a random moment of a stream of 30 events over 6 s, then started again
//      (same user folder); three rounds, in round 2 the balancer answers a bare 200 "n8n is starting up" while
//      no webhook process is up. The job queue keeps what a webhook process took: nothing is cut by the kill.
//   4. every process restarted at a new address while the old one routes (what is published meanwhile waits at
//      the old URL): one webhook per active trigger, moved in place (same ids), no event twice.
//   Redis: with the worker stopped, 20 events are acknowledged (their jobs wait in Redis), Redis is killed (kill -9)
//      and started again, then the worker: every event runs once, as Redis keeps its queue in an append-only file
//      (dev/stack/queue.mjs; without it, none ran).
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { eventually, useStack } from './support/harness.mjs';
import {
	CRASH_OPTIONS,
	crashScenario,
	lifetimeHelpers,
	portOf,
	startProxy,
} from './support/lifetime.mjs';

/** Events acknowledged while the worker is down, before Redis is killed. */
const QUEUED = 20;

describe('queue mode', { timeout: 900_000 }, () => {
	const ctx = useStack({ queue: true, sandboxArgs: CRASH_OPTIONS });
	const queue = () => ctx.stack.queue.n8n;
	crashScenario(ctx, {
		label: 'queue (webhook process)',
		kill: () => queue().killWebhookProcess(1),
		start: () => queue().restartWebhookProcess(1),
		address: () => queue().balancer,
		runsExecutions: false,
	});

	test(
		'queue, Redis: killed and started again while the worker is down, every event acknowledged before runs once',
		{ timeout: 300_000 },
		async () => {
			const { watch, stream, deliveriesOf, once } = lifetimeHelpers(ctx);
			const watched = await watch('redis');
			await queue().stopWorker();
			await stream(watched, QUEUED, 1_000, 'queued');
			await eventually(
				`the ${QUEUED} deliveries acknowledged, their jobs queued`,
				async () => {
					const deliveries = await deliveriesOf(watched);
					return (
						deliveries?.length === QUEUED &&
						deliveries.every((delivery) => delivery.status === 'succeeded')
					);
				},
				60_000,
			);
			await ctx.stack.queue.redis.restart({ crash: true });
			await queue().startWorker();
			await once(watched, 'queue, Redis killed and started again with the worker down');
		},
	);

	const proxies = [];
	after(async () => {
		for (const proxy of proxies) await proxy.close();
	});
	test(
		'queue 4: every process restarted at a new URL, the old one routing: one webhook per trigger, moved in place, no event twice',
		{ timeout: 600_000 },
		async () => {
			const { watch, publish, stream, once, assertOnePerTrigger } = lifetimeHelpers(ctx);
			const watched = await watch('move');
			const before = await assertOnePerTrigger(
				ctx.stack.n8n.webhookUrl,
				'queue 4, before the move',
			);
			await publish(watched, 'before');
			await once(watched, 'queue 4, before the move');
			const proxy = await startProxy(portOf(queue().balancer.url));
			proxies.push(proxy);
			// What is published while n8n's processes are down waits at the old URL.
			const moving = ctx.stack.n8n.restart({ webhookUrl: proxy.url });
			await sleep(1_000);
			await stream(watched, 5, 1_000, 'moving');
			await moving;
			await stream(watched, 10, 2_000, 'moved');
			const moved = await assertOnePerTrigger(proxy.url, 'queue 4, moved, the old URL routing');
			assert.deepEqual(
				moved.automation.webhooks.map((hook) => hook.id).sort(),
				before.automation.webhooks.map((hook) => hook.id).sort(),
				'moved in place',
			);
			await once(watched, 'queue 4, moved with the old URL routing');
		},
	);
});
