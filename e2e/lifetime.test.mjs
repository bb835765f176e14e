// Nothing lost over a deployment's life (issue 32), in the real n8n 2.x, one process: for every event the service
// accepted, exactly one successful execution, across crashes, outages, changes made at the service behind n8n's
// back, restarts, moves to another address, secret rotation and a workflow deleted while n8n was down. Black-box,
// as exactly-once.test.mjs: events are published with the automation key at the sandbox to workflows of one
// Automation Trigger, and executions are counted through n8n's public API by the id of the published event each
// one output (e2e/support/lifetime-count.mjs). n8n runs without its workflow publication service (the stack's
// default), so every start activates the active workflows and each trigger checks its webhook. Time is compressed
// with the sandbox's webhook options. Queue mode: lifetime-queue.test.mjs. Lines starting "measured" give counts.
//
//   n8n reached at an address of its own (a loopback proxy); retries 0.2 s, 0.4 s … (6 attempts, about 5 s), a
//   disabled webhook pinged every 2 s to 5 s:
//     1. kill -9 of n8n at a random moment of a stream of 30 events over 6 s, then n8n started again; three
//        rounds, in round 2 the address answers a bare 200 "n8n is starting up" while n8n is down
//     2a. n8n unreachable past the retry horizon (the address answers 503): the webhook is disabled, keeps its
//         events, and is enabled again by an acknowledged ping alone (n8n does not restart); 2b. n8n stopped past
//         the horizon, then started; 2c. one event alone in such an outage
//     3. a webhook deleted and another disabled at the service behind n8n's back, then a restart: both run again
//     5. a rotation with deliveries pending: events published while n8n cannot be reached, the workflow
//        deactivated and activated (same webhook, new secret), then n8n reachable
//     4. a restart at a new address with the old one routing, then at another with the old ones dead and every
//        workflow deactivated and activated: one webhook per active trigger on every surface, moved in place;
//        after deactivating all, none
//     7. n8n's publication service on (support/lifetime-copy.mjs): a move with the old address routing and the
//        workflow republished while deliveries come through it; then a copy of n8n's user folder started beside
//        it at an address of its own: the copy's activation is refused, saying why, the original runs every event
//   404 for 3 s is receiver_gone, a webhook disabled for 6 s is deleted:
//     6. a workflow deleted from n8n's database while n8n was stopped: its webhook is disabled receiver_gone,
//        then deleted; the other workflow runs on
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { eventually, log, useStack } from './support/harness.mjs';
import {
	CRASH_OPTIONS,
	crashScenario,
	deleteFromDatabase,
	lifetimeHelpers,
	startProxy,
} from './support/lifetime.mjs';
import { publicationMoveAndCopy } from './support/lifetime-copy.mjs';
import { startBalancer } from '../dev/stack/balancer.mjs';

describe('single n8n', { timeout: 900_000 }, () => {
	// n8n is reached at an address of its own (a proxy in front of it, as a public name is), which can stop
	// routing while n8n runs, and go on routing after n8n moved.
	let front;
	before(async () => {
		front = await startBalancer();
	});
	const ctx = useStack({ webhookUrl: () => front.url, sandboxArgs: CRASH_OPTIONS });
	before(() => front.backends.push(ctx.stack.n8n.processes.port));
	const proxies = [];
	after(async () => {
		for (const proxy of [front, ...proxies]) await proxy.close();
	});
	const helpers = lifetimeHelpers(ctx);
	const { watch, publish, stream, webhookOf, deliveriesOf, once, assertOnePerTrigger } = helpers;
	const n8n = () => ctx.stack.n8n.processes;

	crashScenario(ctx, {
		label: 'single',
		kill: () => n8n().kill(),
		start: () => n8n().start(),
		address: () => front,
		runsExecutions: true,
	});

	/** Publishes while n8n cannot be reached until the webhook is disabled, then a few more (held). */
	async function outage(watched, label) {
		await stream(watched, 6, 1_200, `${label} down`);
		const disabled = await eventually(
			'the service to disable the webhook',
			async () => {
				const hook = await webhookOf(watched);
				return hook?.status === 'disabled' && hook;
			},
			30_000,
		);
		await stream(watched, 4, 400, `${label} disabled`);
		const held = (await deliveriesOf(watched)).filter((delivery) => delivery.status === 'held');
		return { disabled, held: held.length };
	}

	test('single 2a: n8n unreachable past the retry horizon, then reachable: re-enabled by an acknowledged ping, every event once', async () => {
		const watched = await watch('unreachable');
		await publish(watched, 'before');
		await once(watched, 'single 2a, before');
		const port = front.backends.pop();
		const { disabled, held } = await outage(watched, '2a');
		const back = Date.now();
		front.backends.push(port);
		await eventually(
			'the webhook enabled again by a ping',
			async () => (await webhookOf(watched))?.status === 'active',
			30_000,
		);
		log(
			`measured single 2a: disabled (${disabled.disabledCode}: ${disabled.disabledReason}); ${held} events held; enabled again ${Date.now() - back} ms after n8n was reachable`,
		);
		assert.equal(disabled.disabledCode, 'failures');
		await once(watched, 'single 2a, after the outage');
	});

	test('single 2b: n8n stopped past the retry horizon, then started: enabled again, every event once', async () => {
		const watched = await watch('stopped');
		await publish(watched, 'before');
		await once(watched, 'single 2b, before');
		await n8n().stop();
		const { disabled, held } = await outage(watched, '2b');
		const stopped = Date.now();
		await n8n().start();
		await eventually(
			'the webhook enabled again',
			async () => (await webhookOf(watched))?.status === 'active',
			30_000,
		);
		const byStart = /had been disabled by the service/.test(n8n().main.output);
		log(
			`measured single 2b: disabled (${disabled.disabledCode}); ${held} events held; enabled again ${Date.now() - stopped} ms after the start began, ${byStart ? "by the trigger's check on start" : 'by a ping'}`,
		);
		assert.equal(disabled.disabledCode, 'failures');
		await once(watched, 'single 2b, after the outage');
	});

	test('single 2c: one event alone while n8n is unreachable past the retry horizon runs once n8n is back', async () => {
		const watched = await watch('alone');
		const port = front.backends.pop();
		await publish(watched, 'alone');
		const ended = await eventually(
			'its delivery to use up its attempts',
			async () =>
				(await deliveriesOf(watched)).find(
					(delivery) => delivery.status !== 'pending' && delivery.attempt > 0,
				),
			30_000,
		);
		const hook = await webhookOf(watched);
		front.backends.push(port);
		await publish(watched, 'after');
		log(
			`measured single 2c: the lone event's delivery ${ended.status} after ${ended.attempt} attempts; the webhook ${hook?.status}`,
		);
		assert.deepEqual([ended.status, hook?.status], ['held', 'disabled'], 'kept, and pinged');
		await once(watched, 'single 2c, after the outage');
	});

	test('single 3: a webhook deleted and another disabled at the service, then a restart: both run again', async () => {
		const deleted = await watch('deleted');
		const disabled = await watch('disabled');
		await publish(deleted, 'before');
		await publish(disabled, 'before');
		await once(deleted, 'single 3, deleted, before');
		await once(disabled, 'single 3, disabled, before');

		await ctx.automation(
			'DELETE',
			`/api/v1/automation/webhooks/${deleted.webhookId}`,
			undefined,
			204,
		);
		await ctx.automation('PATCH', `/api/v1/automation/webhooks/${disabled.webhookId}`, {
			enabled: false,
		});
		assert.equal(await webhookOf(deleted), undefined, 'the service says the webhook is gone');
		assert.equal((await webhookOf(disabled)).status, 'disabled');
		// Published while so: the service keeps them (held), for when the webhook is back.
		for (const watched of [deleted, disabled]) await stream(watched, 2, 200, 'meanwhile');

		await n8n().restart();
		for (const watched of [deleted, disabled]) await stream(watched, 3, 300, 'after');
		const back = {
			deleted: (await webhookOf(deleted))?.status,
			disabled: (await webhookOf(disabled))?.status,
		};
		log(
			`measured single 3: after the restart, the webhooks (same ids) are ${JSON.stringify(back)}`,
		);
		assert.deepEqual(back, { deleted: 'active', disabled: 'active' });
		await once(deleted, 'single 3, the deleted webhook');
		await once(disabled, 'single 3, the disabled webhook');
	});

	test('single 5: a rotation with deliveries pending: every pending event runs once', async () => {
		const watched = await watch('rotation');
		await publish(watched, 'before');
		await once(watched, 'single 5, before');
		// Pending: n8n cannot be reached. (Stopped and started instead, n8n's start-up activation has the trigger
		// take them before the rotation could happen.)
		const port = front.backends.pop();
		await stream(watched, 8, 800, 'pending');
		const waiting = (await deliveriesOf(watched)).filter((delivery) =>
			['pending', 'held'].includes(delivery.status),
		).length;
		await ctx.deactivate(watched.workflowId);
		await ctx.activate(watched.workflowId);
		const hook = await webhookOf(watched);
		front.backends.push(port);
		const inPlace = (n8n().main.output.match(/registered again, in place, webhook/g) ?? []).length;
		log(
			`measured single 5: ${waiting} of 8 deliveries waiting at the service when the workflow was deactivated and activated; the same webhook after: ${hook?.status} (n8n's log: registered again in place ${inPlace} time(s))`,
		);
		assert.equal(waiting, 8, 'the deliveries were pending when the secret was rotated');
		// Active at once, or, on a loaded machine where the pending deliveries' 6 attempts (about 5 s) ran out before
		// the rotation ended (seen at load 8–11), disabled until the service's next ping is acknowledged.
		const active = await eventually(
			'the same webhook, registered again in place, active',
			async () => {
				const now = await webhookOf(watched);
				return now?.status === 'active' && now;
			},
			60_000,
		);
		assert.equal(active.id, hook?.id, 'the same webhook, registered again in place');
		await once(watched, 'single 5, after the rotation');
	});

	test(
		'single 4: a restart at a new URL with the old one routing, then at another with the old one dead: one webhook per trigger, no event twice, no orphan',
		{ timeout: 600_000 },
		async () => {
			const watched = await watch('move');
			for (const file of ['auto-reply.json', 'campaign-link-clicks.json'])
				await ctx.activate(ctx.example(file));
			const before = await assertOnePerTrigger(front.url, 'single 4, before the move');
			const ids = (found) =>
				Object.fromEntries(
					Object.entries(found).map(([key, { webhooks }]) => [
						key,
						webhooks.map((hook) => hook.id).sort(),
					]),
				);
			await publish(watched, 'before');
			// Run before the stop: a delivery that arrives while n8n stops can be answered for an execution n8n
			// then drops (docs/design.md, "What stays out of our reach"); this scenario is about the move.
			await once(watched, 'single 4, before the move');

			// Moved; the old address still reaches n8n. What is published while n8n is down waits at the old URL.
			const first = await startProxy(n8n().port);
			proxies.push(first);
			await n8n().stop();
			await stream(watched, 5, 500, 'moving');
			await n8n().start({ webhookUrl: first.url });
			await stream(watched, 10, 2_000, 'moved');
			const moved = await assertOnePerTrigger(first.url, 'single 4, moved, the old URL routing');
			assert.deepEqual(ids(moved), ids(before), 'each webhook moved in place (same ids)');
			await once(watched, 'single 4, moved with the old URL routing');

			// Moved again, the old addresses dead; then every workflow deactivated and activated.
			const second = await startProxy(n8n().port);
			proxies.push(second);
			await n8n().stop();
			await first.close();
			await front.close();
			proxies.splice(proxies.indexOf(first), 1);
			front = second;
			await stream(watched, 5, 500, 'moving again');
			await n8n().start({ webhookUrl: second.url });
			const active = (await ctx.stack.n8n.client.listAll('/workflows?active=true')).filter(
				(workflow) => workflow.active,
			);
			for (const workflow of active) {
				await ctx.deactivate(workflow.id);
				await ctx.activate(workflow.id);
			}
			await stream(watched, 5, 1_000, 'reactivated');
			const again = await assertOnePerTrigger(
				second.url,
				`single 4, moved again (old URLs dead), ${active.length} workflows deactivated and activated`,
			);
			assert.deepEqual(ids(again), ids(before), 'each webhook moved in place (same ids)');
			await once(watched, 'single 4, moved again');

			for (const workflow of active) await ctx.deactivate(workflow.id);
			const left = await helpers.registrations();
			const counts = Object.fromEntries(
				Object.entries(left).map(([key, { webhooks }]) => [key, webhooks.length]),
			);
			log(
				`measured single 4: webhooks left after deactivating every workflow ${JSON.stringify(counts)}`,
			);
			assert.deepEqual(counts, { workspace: 0, shortLinks: 0, automation: 0 });
		},
	);

	test('single 7: publication service on: a move and a republish lose nothing; a copy of n8n is refused', async () => {
		await publicationMoveAndCopy(ctx, helpers, { n8n, proxies });
	});
});

describe('single n8n: a workflow deleted while n8n was down', { timeout: 900_000 }, () => {
	const ctx = useStack({
		sandboxArgs: [
			'--rate-limit',
			'0',
			'--webhook-retry-base-ms',
			'200',
			'--webhook-max-attempts',
			'20',
			'--webhook-gone-after-ms',
			'3000',
			'--webhook-retention-ms',
			'6000',
			'--webhook-ping-min-ms',
			'1000',
			'--webhook-ping-max-ms',
			'2000',
			'--webhook-upkeep-ms',
			'250',
		],
	});
	const { watch, publish, stream, webhookOf, automationWebhooks, once } = lifetimeHelpers(ctx);

	test('6: its webhook gets 404s, is disabled receiver_gone and deleted; the other workflow runs on', async () => {
		const gone = await watch('gone');
		const stays = await watch('stays');
		await publish(gone, 'before');
		await publish(stays, 'before');
		await once(gone, '6, before');
		await once(stays, '6, the other workflow, before');

		await ctx.stack.n8n.processes.stop();
		await deleteFromDatabase(ctx, gone.workflowId);
		await ctx.stack.n8n.processes.start();
		// n8n no longer has the workflow.
		await ctx.api('GET', `/workflows/${gone.workflowId}`, undefined, 404);

		const started = Date.now();
		await publish(gone, 'after');
		await stream(stays, 3, 600, 'after');
		const disabled = await eventually(
			'the webhook disabled as receiver_gone',
			async () => {
				const hook = await webhookOf(gone);
				return hook?.disabledCode === 'receiver_gone' && hook;
			},
			30_000,
		);
		const disabledAfter = Date.now() - started;
		await eventually(
			'the webhook deleted',
			async () =>
				(await webhookOf(gone)) === undefined &&
				!(await automationWebhooks()).some((hook) => hook.id === gone.webhookId),
			30_000,
		);
		log(
			`measured 6: the deleted workflow's webhook disabled receiver_gone after ${disabledAfter} ms ("${disabled.disabledReason}"), deleted after ${Date.now() - started} ms`,
		);
		const other = await webhookOf(stays);
		assert.equal(other?.status, 'active', "the other workflow's webhook is untouched");
		await once(stays, '6, the other workflow');
	});
});

// Breaks: each fix undone in a copy of the checkout (2026-11-25), this file run again:
//   - the sandbox counts a bare 2xx as delivered (requireAcknowledgement ignored): 1 fails in round 2, 28 of 30
//     events never ran (the address's "n8n is starting up" took them);
//   - claims final at once instead of leases: 1 fails when a claim is in flight at the kill (round 3 of 3 in
//     that run: 1 event never ran, every redelivery a duplicate);
//   - pings do not enable a webhook again: 2a fails (disabled for good, 10 events held); 2b passes, enabled by
//     the trigger's check on start;
//   - the trigger registers without an owner: 3 fails (the deleted webhook and its held events are gone), 5
//     fails (the rotation drops the 8 pending deliveries), 4 fails (new webhook ids; with that check off, 6 of 16
//     events never ran: those pending at the old webhook, deleted as a leftover);
//   - n8n's publication service on (N8N_USE_WORKFLOW_PUBLICATION_SERVICE=true): 3 fails (the deleted and the
//     disabled webhook stay so), 4 fails (3 webhooks for 4 triggers); 2b passes, enabled by a ping;
//   - (7, 2026-11-28) the refused copy's delete() not checking where the webhook delivers (before a294368): 7
//     fails, 5 of 5 events published beside the copy never ran (n8n deactivated the copy's workflow);
//   - (2c, found by this file and fixed in 0c227d7) before it, a delivery that used up its attempts was dropped
//     unless it was one of 3 in a row that disable the webhook: the lone event's delivery `failed`, never run.
// Known limits (n8n 2.40.7, one process), counted as "cut by the kill", never more than one beside an event's
//   run: n8n answers a delivery once the execution has started and marks an execution `running` at a kill
//   `crashed` at the next start, never running it again; it runs again at start an execution still `new` at
//   the kill, which the service also delivers again, as no answer came (measured once in 3 runs of 3 rounds: the
//   event ran twice). A proxy that answers 200 for a receiver that reset a request it had claimed makes that
//   claim final (a 2xx to the attempt that claimed, sandbox/delivery/deliveries.ts settle): the event never runs; the
//   address here answers such a request 502, as a proxy does.
