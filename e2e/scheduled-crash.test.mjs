// A scheduled send whose time comes while n8n runs, the sandbox killed (kill -9) at that moment and started again
// (issue 44, item 1: an event the service makes on its own clock is saved with its id before it is announced). A
// Multichannel Trigger on Message Scheduled Sent; the sandbox is killed as soon as it reports the message sent
// (read every 50 ms once its time is brought to now), while the event is being announced to n8n. The message goes
// out once, and the trigger runs once, for that message. On the shared stack: the sandbox is restarted through
// e2e/run.mjs (support/stack-control.mjs). The service takes a send a minute ahead at least; rather than wait that
// minute, the sandbox-only `due-now` brings its time to now, and the sandbox's own check sends it as at its time.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { eventually, log, nodeOutput, useStack } from './support/harness.mjs';

const ctx = useStack();
const TO = '+14155550177';
const TRIGGER = 'Scheduled send went';
/** How far ahead the send is scheduled: the service takes 1 minute at least. */
const AHEAD_MS = 5 * 60_000;

test(
	'the sandbox killed at a scheduled send’s time: the message goes out once, the trigger runs once',
	{ timeout: 300_000 },
	async () => {
		const { created } = await ctx.activateFixture('polls-calls.json', (workflow) => {
			const [trigger] = workflow.nodes;
			Object.assign(trigger, { name: TRIGGER, parameters: { events: ['message.scheduled_sent'] } });
			return { ...workflow, name: 'e2e: a scheduled send' };
		});
		await eventually('the trigger to register its webhook', async () => {
			const page = await ctx.workspace('GET', '/api/v1/webhooks?limit=100');
			return page.data.some((hook) => hook.url.startsWith(ctx.stack.n8n.webhookUrl));
		});
		const messages = `/api/v1/instances/${ctx.stack.instance.id}/messages`;
		const sendAt = Date.now() + AHEAD_MS;
		const scheduled = await ctx.workspace('POST', `${messages}/text`, {
			to: TO,
			text: 'Your appointment is tomorrow at 10:00.',
			sendAt: new Date(sendAt).toISOString(),
		});
		assert.equal(scheduled.status, 'scheduled');
		const due = await ctx.workspace(
			'POST',
			`/sandbox/instances/${ctx.stack.instance.id}/scheduled-messages/${scheduled.id}/due-now`,
		);
		const dueAt = Date.parse(due.sendAt);
		assert.ok(dueAt < sendAt, `its time brought to now (${due.sendAt})`);

		const deadline = Date.now() + 30_000;
		while ((await ctx.workspace('GET', `${messages}/${scheduled.id}`)).status === 'scheduled') {
			assert.ok(Date.now() < deadline, 'the message went out at its time');
			await sleep(50);
		}
		const lateBy = Date.now() - dueAt;
		await ctx.stack.sandbox.restart({ crash: true });
		log(`the sandbox killed ${lateBy} ms after the send's time, and started again`);

		const [run, ...more] = await ctx.settledExecutions(created.id, 1, { quietMs: 5_000 });
		assert.equal(more.length, 0, `one execution, not ${more.length + 1}`);
		assert.equal(run.status, 'success');
		const [item] = nodeOutput(run, TRIGGER);
		log(`the trigger's event: ${item.id}${item.data.late ? ', late' : ''}`);
		assert.equal(item.type, 'message.scheduled_sent');
		assert.equal(item.data.id, scheduled.id);
		const page = await ctx.workspace('GET', `${messages}?limit=100`);
		const sent = page.data.filter((message) => message.to === TO);
		assert.deepEqual(
			sent.map((message) => [message.id, message.status === 'scheduled']),
			[[scheduled.id, false]],
			'one message, sent',
		);
		await ctx.deactivate(created.id);
	},
);
