// Every example published at once, as a newcomer does after `npm start` (issue 34, "Examples that coexist"), in a
// real n8n (the package installed as a community package): the examples as the stack imported them, published,
// the AI agent's with an OpenAI credential pointed at the scripted model (e2e/support/chat-model.mjs), the two
// whose Manual Trigger n8n's public API cannot run (approve-refund, confirm-appointment) started by a Webhook node
// instead. Then a person's text, a person's file, a text in a group, a tap on the appointment buttons and the
// manager's approval each get exactly one answer, from the workflow meant for it, and no other workflow starts; the
// label Support put on a chat and taken off runs the support queue (support-queue.json, support-queue-closed.json)
// and nothing else; clicks on the campaign link are logged one by one (campaign-link-clicks.json) and counted by
// country in one batch (campaign-clicks-by-country.json), and send nothing; bulk-send's campaign completes and is
// summed up once (campaign-completed.json), and a recipient's STOP is confirmed by the service and noted once
// (campaign-opt-outs.json), not answered by the AI agent.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import {
	BROWSER_UA,
	eventually,
	exampleWithWebhook,
	log,
	nodeOutput,
	useStack,
} from './support/harness.mjs';
import { pickScriptedModel, startChatModel } from './support/chat-model.mjs';
import { prepareWorkflow } from '../dev/stack/stack.mjs';

/** Who writes: a person's text, a person's file, a group member; the numbers the examples use. */
const TEXTER = '+14155554001';
const SENDER = '+14155554002';
const MEMBER = '+14155554003';
const ANA = '+14155550171';
const CUSTOMER = '+14155550131';
const MANAGER = '+14155550132';
const ASKER = '+14155554004';
/** bulk-send's contacts here; the second answers STOP. The owner campaign-completed.json tells. */
const CONTACTS = [
	{ name: 'Hana', phone: '+14155554005' },
	{ name: 'Ivo', phone: '+14155554006' },
];
const STOPPER = CONTACTS[1].phone;
const OWNER = '+14155550190';

/**
 * The examples published as imported; the ones started by a Webhook node here (bulk-send among them).
 * campaign-short-link and tracked-campaign have only a Manual Trigger: nothing to publish.
 */
const PUBLISHED = [
	'ai-agent-reply.json',
	'appointment-answers.json',
	'auto-reply.json',
	'automation-relay.json',
	'campaign-clicks-by-country.json',
	'campaign-completed.json',
	'campaign-opt-outs.json',
	'campaign-link-clicks.json',
	'receive-files.json',
	'support-queue-closed.json',
	'support-queue.json',
	'tracked-campaign-follow-up.json',
];

/** bulk-send as published here: these contacts, a send a second (the example's 20 a minute and pause are slower). */
const fastCampaign = (node) => {
	if (node.name === 'Contacts') {
		const jsonOutput = JSON.stringify({ contacts: CONTACTS });
		return { ...node, parameters: { ...node.parameters, jsonOutput } };
	}
	if (node.name === 'Create the campaign') {
		return { ...node, parameters: { ...node.parameters, perMinute: 60, jitterSeconds: 0 } };
	}
	return node;
};

describe('every example published at once', { timeout: 600_000 }, () => {
	const ctx = useStack();
	let model;
	before(async () => {
		model = await startChatModel((body) => ({
			text: `Agent: ${body.messages.findLast((message) => message.role === 'user')?.content}`,
		}));
	});
	after(async () => await model?.close());

	const instanceId = () => ctx.stack.instance.id;
	const messagesTo = (to) => ctx.messagesTo(to);
	/** Waits for the `count`th message to `to`, then returns them all. */
	const answered = (to, count) =>
		eventually(
			`${count} message(s) to ${to}`,
			async () => {
				const sent = await messagesTo(to);
				return sent.length >= count && sent;
			},
			120_000,
		);

	/** Workflow ids by example file. */
	const ids = {};

	test('the examples, published together', async () => {
		// The user picks the chat model's credential in the imported AI agent workflow.
		await pickScriptedModel(ctx, ctx.example('ai-agent-reply.json'), {
			model,
			apiKey: 'sk-e2e-coexist-0123456789abcdef',
		});
		for (const file of PUBLISHED) {
			ids[file] = ctx.example(file);
			await ctx.activate(ids[file]);
		}
		for (const [file, start, change] of [
			['approve-refund.json', 'Refund requested'],
			['confirm-appointment.json', 'Ask'],
			['bulk-send.json', 'Run it', fastCampaign],
		]) {
			const path = `${file.replace('.json', '')}-${randomUUID().slice(0, 8)}`;
			const made = await ctx.api(
				'POST',
				'/workflows',
				prepareWorkflow(exampleWithWebhook(file, { start, path, change }), {
					credentials: ctx.stack.credentials,
					instance: ctx.stack.instance,
				}),
			);
			await ctx.activate(made.id);
			ids[file] = { id: made.id, path };
		}
		// Eight Multichannel Triggers (AI agent, appointment answers, auto-reply, receive-files, the support queue's
		// two, the campaign's summary and its opt-outs).
		await eventually('the eight messaging webhooks', async () => {
			const page = await ctx.workspace('GET', '/api/v1/webhooks?limit=100');
			return page.data.length === 8;
		});
	});

	test('a person’s text: the AI agent answers, once', async () => {
		await ctx.workspace('POST', `/sandbox/instances/${instanceId()}/inbound`, {
			from: TEXTER,
			text: 'Do you open on Sunday?',
		});
		const [reply] = await answered(TEXTER, 1);
		assert.equal(reply.content.text, 'Agent: Do you open on Sunday?');
	});

	test('a person’s file with a caption: receive-files answers, once', async () => {
		await ctx.workspace('POST', `/sandbox/instances/${instanceId()}/inbound/media`, {
			from: SENDER,
			sample: 'pdf',
			caption: 'My invoice',
		});
		const [reply] = await answered(SENDER, 1);
		assert.match(reply.content.text, /^Thanks, we received your file .+\.pdf \(\d+ bytes\)\.$/);
	});

	test('a text and a file in a group: auto-reply answers each in the group, the file by its name and caption', async () => {
		const group = await ctx.workspace('POST', `/api/v1/instances/${instanceId()}/groups`, {
			subject: 'Neighbours',
			participants: [MEMBER],
		});
		await ctx.workspace('POST', `/sandbox/instances/${instanceId()}/inbound`, {
			from: MEMBER,
			groupId: group.id,
			text: 'Is the shop open today?',
		});
		await answered(group.id, 1);
		await ctx.workspace('POST', `/sandbox/instances/${instanceId()}/inbound/media`, {
			from: MEMBER,
			groupId: group.id,
			sample: 'image',
			caption: 'The broken part',
		});
		const [text, file] = await answered(group.id, 2);
		assert.equal(
			text.content.text,
			'Thanks for your message! We got: "Is the shop open today?" and will answer shortly.',
		);
		assert.match(file.content.text, /^Thanks for your file .+, "The broken part"! We will look/);
		ids.group = group.id;
	});

	test('a tap on the appointment buttons: appointment-answers answers, once', async () => {
		const { path } = ids['confirm-appointment.json'];
		assert.equal((await ctx.postToWebhook(path, {})).status, 200);
		const [buttons] = await answered(ANA, 1);
		assert.equal(buttons.type, 'buttons');
		const tapped = await ctx.workspace(
			'POST',
			`/sandbox/instances/${instanceId()}/messages/${buttons.id}/tap`,
			{ id: 'appointment-confirm' },
		);
		const [, answer] = await answered(ANA, 2);
		assert.equal(answer.content.text, 'Thank you, see you on Tuesday at 10:00!');
		assert.equal(answer.content.quotedMessageId, tapped.id);
	});

	test('the manager’s approval: approve-refund resumes and tells the customer, once', async () => {
		const { path } = ids['approve-refund.json'];
		assert.equal((await ctx.postToWebhook(path, {})).status, 200);
		const [question] = await answered(MANAGER, 1);
		await eventually('the answer registration', async () => {
			const page = await ctx.workspace('GET', `/api/v1/instances/${instanceId()}/answers`);
			return page.data.some((entry) => entry.messageId === question.id);
		});
		await ctx.workspace('POST', `/sandbox/instances/${instanceId()}/messages/${question.id}/tap`, {
			id: 'approve',
		});
		const [told] = await answered(CUSTOMER, 1);
		assert.match(told.content.text, /^Good news: your refund of \$120\.00/);
	});

	test('the label Support on a person’s chat: support-queue puts on the topic label, tells them and schedules a follow-up; taken off, support-queue-closed polls and cancels the follow-up', async () => {
		await ctx.workspace('POST', `/sandbox/instances/${instanceId()}/inbound`, {
			from: ASKER,
			text: 'My invoice is wrong',
		});
		const [agent] = await answered(ASKER, 1); // a person's text: the AI agent's
		const labels = (await ctx.workspace('GET', '/api/v1/labels?limit=100')).data;
		const labelId = (name) => labels.find((label) => label.name === name).id;
		const chat = `/api/v1/instances/${instanceId()}/chats/${agent.chatId}`;
		const scheduled = async () =>
			(
				await ctx.workspace('GET', `/api/v1/instances/${instanceId()}/scheduled-messages?limit=100`)
			).data.filter((message) => message.chatId === agent.chatId);

		const queuedAt = Date.now();
		await ctx.workspace('POST', `${chat}/labels/${labelId('Support')}`);
		const [, told] = await answered(ASKER, 2);
		assert.equal(
			told.content.text,
			'Thanks! Your question is in our Billing queue: someone from the team will answer here.',
		);
		const names = (await ctx.workspace('GET', chat)).labels.map((label) => label.name).sort();
		assert.deepEqual(names, ['Billing', 'Support']);
		const [followUp] = await eventually('the follow-up, scheduled', async () => {
			const found = await scheduled();
			return found.length > 0 && found;
		});
		assert.equal(followUp.status, 'scheduled');
		assert.match(followUp.content.text, /^Is your question solved\?/);
		const ahead = Date.parse(followUp.scheduled?.sendAt ?? followUp.sendAt) - queuedAt;
		assert.ok(ahead > 23 * 3_600_000 && ahead < 25 * 3_600_000, `sent ${ahead} ms later`);

		await ctx.workspace('DELETE', `${chat}/labels/${labelId('Support')}`);
		const [, , poll] = await answered(ASKER, 3);
		assert.equal(poll.type, 'poll');
		assert.equal(poll.content.question, 'How did we do?');
		await eventually('the follow-up, cancelled', async () => {
			const [found] = await scheduled();
			return found?.status === 'cancelled';
		});
	});

	test('clicks on the campaign link and another: campaign-link-clicks runs for each, campaign-clicks-by-country counts the campaign’s by country in one batch, nothing is sent', async () => {
		const link = async (code) =>
			await ctx.shortLinks('POST', '/api/v1/links', { url: `https://example.com/${code}`, code });
		const [campaign, other] = [await link('spring-sale'), await link('autumn-coexist')];
		const open = async (shortUrl, country) => {
			const response = await fetch(shortUrl, {
				redirect: 'manual',
				headers: { 'user-agent': BROWSER_UA, 'cf-ipcountry': country },
			});
			assert.equal(response.status, 302);
		};
		await open(campaign.shortUrl, 'DE');
		await open(other.shortUrl, 'DE');
		await open(campaign.shortUrl, 'FR');
		await open(campaign.shortUrl, 'DE');
		const finished = async (file, count) =>
			await eventually(
				`${count} execution(s) of ${file}`,
				async () => {
					const runs = await ctx.executions(ids[file], true);
					return runs.length >= count && runs.every((run) => run.status === 'success') && runs;
				},
				60_000,
			);
		await finished('campaign-link-clicks.json', 4);
		const [batch] = await finished('campaign-clicks-by-country.json', 1);
		assert.equal(nodeOutput(batch, 'Clicks, in batches').length, 4);
		const rows = nodeOutput(batch, 'Append the rows here').map(({ country, clicks }) => ({
			country,
			clicks,
		}));
		assert.deepEqual(
			rows.sort((a, b) => a.country.localeCompare(b.country)),
			[
				{ country: 'DE', clicks: 2 },
				{ country: 'FR', clicks: 1 },
			],
		);
	});

	test('bulk-send’s campaign: completed and summed up once; a recipient’s STOP confirmed by the service and noted once, not answered by the AI agent', async () => {
		const { path } = ids['bulk-send.json'];
		assert.equal((await ctx.postToWebhook(path, {})).status, 200);
		for (const { phone } of CONTACTS) await answered(phone, 1);
		const [summary] = await answered(OWNER, 1);
		assert.match(summary.content.text, /^Campaign "Spring sale" is done: 2 recipients; 2 reached/);
		await ctx.workspace('POST', `/sandbox/instances/${instanceId()}/inbound`, {
			from: STOPPER,
			text: 'STOP',
		});
		const [, confirmation] = await answered(STOPPER, 2);
		const [campaign] = (await ctx.workspace('GET', '/api/v1/campaigns?limit=100')).data;
		assert.equal(confirmation.content.text, campaign.optOut.confirmation);
		await eventually('the opt-out, noted', async () => {
			const runs = await ctx.executions(ids['campaign-opt-outs.json'], true);
			return runs.length === 1 && runs[0].status === 'success';
		});
	});

	test('nothing else: one answer each, and no workflow ran for what another answers', async () => {
		await sleep(8_000); // time for a second answer, were there one (the AI agent gathers for 3 s)
		const counts = {};
		for (const to of [TEXTER, SENDER, ids.group, ANA, MANAGER, CUSTOMER, ASKER, STOPPER, OWNER]) {
			counts[to] = (await messagesTo(to)).length;
		}
		const runs = {};
		for (const [file, entry] of Object.entries(ids)) {
			if (file.endsWith('.json')) {
				runs[file] = (await ctx.executions(typeof entry === 'string' ? entry : entry.id)).length;
			}
		}
		log(
			`measured: messages per recipient ${JSON.stringify(counts)}; executions ${JSON.stringify(runs)}`,
		);
		assert.deepEqual(counts, {
			[TEXTER]: 1,
			[SENDER]: 1,
			[ids.group]: 2,
			[ANA]: 2, // the buttons and the answer to the tap
			[MANAGER]: 1, // the question
			[CUSTOMER]: 1,
			[ASKER]: 3, // the AI agent's answer; support-queue's word that the chat is queued; the poll
			[STOPPER]: 2, // the campaign and the service's confirmation of the STOP
			[OWNER]: 1, // the campaign's summary
		});
		assert.deepEqual(runs, {
			'ai-agent-reply.json': 2, // the texter's and the asker's
			'appointment-answers.json': 1,
			'auto-reply.json': 2,
			'automation-relay.json': 0,
			'campaign-clicks-by-country.json': 1, // the 4 clicks in one batch
			'campaign-completed.json': 1,
			'campaign-opt-outs.json': 1, // the STOP (not the AI agent's)
			'campaign-link-clicks.json': 4, // a click each, the other link's too
			'receive-files.json': 1,
			'support-queue-closed.json': 1, // Support taken off
			'support-queue.json': 2, // Support put on, then Billing put on by itself (stops at its filter)
			'tracked-campaign-follow-up.json': 4, // each click, stopped at its filter (not a tracked link)
			'approve-refund.json': 1,
			'confirm-appointment.json': 1,
			'bulk-send.json': 1,
		});
		assert.ok(model.requests.length > 0, 'the AI agent asked the model');
	});
});
