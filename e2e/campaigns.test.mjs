// Campaigns in a real n8n (the package installed as a community package), with the examples as `npm start` imports
// them: bulk-send.json (started by a Webhook node here, since n8n's public API cannot run a Manual Trigger) hands
// its list to the service as one campaign; it is paused, resumed and completes; campaign-completed.json runs once
// and tells the owner; a re-run of the same workflow creates nothing and sends no one the message twice; a
// recipient's STOP opts them out, they get the confirmation, and campaign-opt-outs.json runs once.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { eventually, exampleWithWebhook, log, nodeOutput, useStack } from './support/harness.mjs';
import { prepareWorkflow } from '../dev/stack/stack.mjs';

const ctx = useStack();

const CONTACTS = [
	{ name: 'Dana', phone: '+1 415 555 0191' },
	{ name: 'Eli', phone: '+1 415 555 0192' },
	{ name: 'Fay', phone: '+1 415 555 0193' },
	{ name: 'Gus', phone: '+1 415 555 0194' },
];
const numberOf = (contact) => contact.phone.replaceAll(' ', '');
/** The owner the example's summary goes to. */
const OWNER = '+14155550190';
/** A send every 2 s: fast enough for a short test, slow enough to pause between two sends. */
const PER_MINUTE = 30;

/** The example with this test's contacts and pacing, started by POSTing to `path`. */
const campaignWorkflow = (path) =>
	exampleWithWebhook('bulk-send.json', {
		start: 'Run it',
		path,
		change: (node) => {
			if (node.name === 'Contacts') {
				const jsonOutput = JSON.stringify({ contacts: CONTACTS });
				return { ...node, parameters: { ...node.parameters, jsonOutput } };
			}
			if (node.name === 'Create the campaign') {
				return {
					...node,
					parameters: { ...node.parameters, perMinute: PER_MINUTE, jitterSeconds: 0 },
				};
			}
			return node;
		},
	});

describe('a campaign in a real n8n', () => {
	const instanceId = () => ctx.stack.instance.id;
	const messagesTo = (to) => ctx.messagesTo(to);
	/** A workflow's `count` executions, once all are over and successful, newest first. */
	const succeeded = (workflowId, count) =>
		eventually(`${count} successful execution(s)`, async () => {
			const runs = await ctx.executions(workflowId, true);
			return runs.length >= count && runs.every((run) => run.status === 'success') && runs;
		});
	const campaign = (id) => ctx.workspace('GET', `/api/v1/campaigns/${id}`);

	test('created from one execution, paused, resumed, completed; the summary once; a re-run sends no one twice; a STOP opts out once', async () => {
		const path = `campaign-${randomUUID().slice(0, 8)}`;
		const created = await ctx.api(
			'POST',
			'/workflows',
			prepareWorkflow(campaignWorkflow(path), {
				credentials: ctx.stack.credentials,
				instance: ctx.stack.instance,
			}),
		);
		const completedId = ctx.example('campaign-completed.json');
		const optOutsId = ctx.example('campaign-opt-outs.json');
		for (const id of [created.id, completedId, optOutsId]) await ctx.activate(id);
		await eventually('the two triggers’ webhooks', async () => {
			const page = await ctx.workspace('GET', '/api/v1/webhooks?limit=100');
			const events = page.data
				.filter((hook) => hook.url.startsWith(ctx.stack.n8n.webhookUrl))
				.flatMap((hook) => hook.events);
			return events.includes('campaign.completed') && events.includes('contact.opted_out');
		});

		// 1. One execution hands the whole list over; the service sends it on its own.
		assert.equal((await ctx.postToWebhook(path, {})).status, 200);
		const [run] = await succeeded(created.id, 1);
		const [made] = nodeOutput(run, 'Create the campaign');
		assert.equal(made.created, true);
		assert.equal(made.added.accepted, CONTACTS.length);
		assert.equal(made.status, 'running');
		const id = made.id;

		// 2. Paused after its first send: nothing more goes for longer than a gap. Resumed: it completes.
		await eventually('the first send', async () => (await campaign(id)).counts.queued < 4);
		await ctx.workspace('POST', `/api/v1/campaigns/${id}/pause`);
		const paused = await campaign(id);
		assert.equal(paused.status, 'paused');
		await sleep((60_000 / PER_MINUTE) * 1.5); // time for a send, were the pause not kept
		assert.equal((await campaign(id)).counts.queued, paused.counts.queued);
		assert.ok(paused.counts.queued > 0, 'paused before the last send');
		await ctx.workspace('POST', `/api/v1/campaigns/${id}/resume`);
		const done = await eventually(
			'the campaign to complete',
			async () => {
				const now = await campaign(id);
				return now.status === 'completed' && now;
			},
			60_000,
		);
		assert.equal(done.counts.queued, 0);
		assert.equal(done.counts.skipped, 0);

		// Each contact got it once, with their name and their own tracked link with the UTM fields.
		const [first] = await messagesTo(numberOf(CONTACTS[0]));
		const [tracked] = first.trackedLinks;
		assert.equal(first.content.text, `Hi Dana, our spring sale starts today: ${tracked.shortUrl}`);
		assert.equal(
			tracked.url,
			'https://example.com/spring-sale?utm_source=whatsapp&utm_medium=campaign&utm_campaign=spring-sale',
		);

		// 3. campaign.completed runs the summary once: one message to the owner.
		const [summaryRun] = await succeeded(completedId, 1);
		assert.equal(nodeOutput(summaryRun, 'Campaign completed')[0].data.id, id);
		const [summary] = await eventually('the summary', async () => {
			const sent = await messagesTo(OWNER);
			return sent.length > 0 && sent;
		});
		assert.match(summary.content.text, /^Campaign "Spring sale" is done: 4 recipients; 4 reached/);

		// 4. The same workflow again: the campaign is found, every contact a duplicate, nothing sent.
		assert.equal((await ctx.postToWebhook(path, {})).status, 200);
		const [rerun] = await succeeded(created.id, 2);
		const [again] = nodeOutput(rerun, 'Create the campaign');
		assert.equal(again.created, false);
		assert.equal(again.id, id);
		assert.equal(again.added.duplicate, CONTACTS.length);
		assert.equal(again.added.accepted, 0);

		// 5. One recipient answers STOP: opted out, told so, and the opt-out workflow runs once.
		const stopper = numberOf(CONTACTS[1]);
		await ctx.workspace('POST', `/sandbox/instances/${instanceId()}/inbound`, {
			from: stopper,
			text: 'STOP',
		});
		const [optOutRun] = await succeeded(optOutsId, 1);
		const [row] = nodeOutput(optOutRun, 'Note it in your CRM here');
		assert.deepEqual(
			{ phone: row.phone, how: row.how, campaignId: row.campaignId },
			{ phone: stopper, how: 'answered a campaign with a stop word', campaignId: id },
		);
		const [, confirmation] = await eventually('the confirmation', async () => {
			const sent = await messagesTo(stopper);
			return sent.length >= 2 && sent;
		});
		assert.equal(confirmation.content.text, done.optOut.confirmation);
		assert.equal(
			(await ctx.workspace('GET', `/api/v1/opt-outs/${encodeURIComponent(stopper)}`)).optedOut,
			true,
		);

		// Nothing else: one campaign message each (and the confirmation), one summary, each trigger once.
		await sleep(2_000); // time for a second execution or message, were there one
		const counts = {};
		for (const contact of CONTACTS)
			counts[contact.name] = (await messagesTo(numberOf(contact))).length;
		counts.owner = (await messagesTo(OWNER)).length;
		const runs = {
			create: (await ctx.executions(created.id)).length,
			completed: (await ctx.executions(completedId)).length,
			optOuts: (await ctx.executions(optOutsId)).length,
		};
		log(`measured: messages ${JSON.stringify(counts)}; executions ${JSON.stringify(runs)}`);
		assert.deepEqual(counts, { Dana: 1, Eli: 2, Fay: 1, Gus: 1, owner: 1 });
		assert.deepEqual(runs, { create: 2, completed: 1, optOuts: 1 });
		for (const workflowId of [created.id, completedId, optOutsId]) await ctx.deactivate(workflowId);
	});
});
