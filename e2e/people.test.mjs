// Conversations with people (issue 48) in a real n8n, on the shared stack, with the examples as a person imports
// them. Each count is exact: the messages sent to the contact, the executions run, the model's turns. Each test's
// workflow stays published to the end of the file (the shared stack unpublishes it then): none starts for what
// the later tests do.
// 1. A contact deletes a message: a Multichannel Trigger on Message Deleted (by the contact) runs once, and once
//    only when the service delivers the event again.
// 2. A contact with a username and no visible number sends a file: receive-files answers it by `from` (the contact's
//    id), in that contact's chat. Once the owner answers them from the business's own phone, their next file still
//    runs it (the file kept as binary data) and no receipt is sent.
// 3. The AI agent example (its chat model a scripted server on loopback): a contact writes, the agent answers; the
//    owner answers from the business's own phone, so the chat is handed over to a person: the contact's next
//    message runs nothing and the agent says nothing; once the chat is given back (the hand-over's quiet period
//    brought to its end by the sandbox's clock), the contact's next message is answered by the agent again. At the
//    same time another contact asks for a person: the example hands that chat over itself, says so once, without
//    the model, and their next message runs nothing.
// 4. The auto-reply example in a group the owner answers from the business's own phone: silent there until the group
//    is given back, then it answers again.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { eventually, log, nodeOutput, useStack } from './support/harness.mjs';
import { pickScriptedModel, startChatModel } from './support/chat-model.mjs';

const ctx = useStack();
/**
 * Executions counted once none has changed for 1.5 s: each count here follows an event n8n has already answered
 * (n8n 1.x answers before it records the execution, within milliseconds).
 */
const SETTLED = { quietMs: 1_500 };
/** What the owner answers from the business's own phone. */
const OWNER_ANSWER = 'Hi, this is Sam from the shop: it left today.';
const instanceId = () => ctx.stack.instance.id;
const inChat = (chatId) => `/api/v1/instances/${instanceId()}/chats/${encodeURIComponent(chatId)}`;
const sandboxChat = (chatId) =>
	`/sandbox/instances/${instanceId()}/chats/${encodeURIComponent(chatId)}`;

/** What the contact and the business's own phone do, through the sandbox's phone (sandbox/README.md). */
const phone = {
	/** A contact writes a text. `from`: a number, or `@username` for a contact who hides their number. */
	write: (from, text) =>
		ctx.workspace('POST', `/sandbox/instances/${instanceId()}/inbound`, { from, text }),
	/** A contact sends a file (one of the sandbox's samples). */
	sendFile: (from, sample) =>
		ctx.workspace('POST', `/sandbox/instances/${instanceId()}/inbound/media`, {
			from,
			sample,
		}),
	/** The contact deletes a message they sent. */
	delete: (messageId) =>
		ctx.workspace('POST', `/sandbox/instances/${instanceId()}/messages/${messageId}/delete`, {}),
	/** The owner answers in a chat from the business's own phone, not through the API: the chat is handed over. */
	answerAsBusiness: (chatId, text) =>
		ctx.workspace('POST', `${sandboxChat(chatId)}/answer-as-business`, { text }),
	/** The hand-over's quiet period ends now (the sandbox's clock): the chat is given back within a second. */
	quietPeriodOver: (chatId) => ctx.workspace('POST', `${sandboxChat(chatId)}/give-back-due-now`),
};

/** The messages of a chat, oldest first. */
const chatMessages = async (chatId) =>
	(
		await ctx.workspace(
			'GET',
			`/api/v1/instances/${instanceId()}/messages?chatId=${encodeURIComponent(chatId)}&limit=100&order=oldest`,
		)
	).data;

/** The messaging webhook n8n registered for a workflow's trigger, once there. */
const webhookOf = (workflowId) =>
	eventually('the trigger’s webhook at the sandbox', async () => {
		const { nodes } = await ctx.api('GET', `/workflows/${workflowId}`);
		const ids = nodes.filter((node) => node.webhookId).map((node) => node.webhookId);
		const hooks = await ctx.workspace('GET', '/api/v1/webhooks?limit=100');
		return hooks.data.find((hook) => ids.some((id) => hook.url.includes(id)));
	});

/** The webhook's deliveries of events (of `type`, if given) that n8n acknowledged, newest first. */
const acknowledged = async (hook, type) =>
	(await ctx.workspace('GET', `/api/v1/webhooks/${hook.id}/deliveries?limit=100`)).data.filter(
		(delivery) =>
			delivery.status === 'succeeded' &&
			delivery.eventType !== 'ping' &&
			(type === undefined || delivery.eventType === type),
	);

/** A chat's hand-over as the service tells it. */
const handOver = async (chatId) => (await ctx.workspace('GET', inChat(chatId))).handOver ?? {};

describe('conversations with people in a real n8n', { timeout: 300_000 }, () => {
	let model;
	before(async () => {
		// The agent answers by echoing what it was asked, so that each answer names the run it belongs to.
		model = await startChatModel((body) => ({
			text: `Agent: ${body.messages.findLast((message) => message.role === 'user')?.content}`,
		}));
	});
	after(async () => await model?.close());

	test('a message the contact deletes reaches the trigger once', async () => {
		const { created } = await ctx.activateFixture('people-deleted.json');
		const hook = await webhookOf(created.id);
		const from = '+14155554803';
		const sent = await phone.write(from, 'Oops, wrong chat');
		await phone.delete(sent.id);
		const [deleted] = await eventually('the delivery acknowledged', async () => {
			const found = await acknowledged(hook, 'message.deleted');
			return found.length > 0 && found;
		});
		// The service delivers it again, three copies at once (an answer lost): it runs nothing more.
		await ctx.workspace('POST', `/sandbox/webhooks/${hook.id}/redeliver`, {
			eventId: deleted.eventId,
			copies: 3,
		});
		const runs = await ctx.settledExecutions(created.id, 1, SETTLED);

		assert.equal(runs.length, 1, 'one run');
		const [event] = nodeOutput(runs[0], 'Message deleted');
		assert.equal(event.type, 'message.deleted');
		assert.equal(event.data.id, sent.id);
		assert.equal(event.data.by, 'contact');
	});

	test('a contact with no visible number sends a file: receive-files answers them by `from`, and not while a person handles their chat', async () => {
		const workflowId = ctx.example('receive-files.json');
		await ctx.activate(workflowId);
		await webhookOf(workflowId);
		const received = await phone.sendFile('@ada_no_number', 'pdf');
		assert.ok(!received.phone, 'no number is shown');
		const [run] = await ctx.settledExecutions(workflowId, 1, SETTLED);

		assert.equal(run.status, 'success', JSON.stringify(run.data?.resultData?.error));
		const [event] = nodeOutput(run, 'Message received');
		assert.equal(event.data.username, 'ada_no_number');
		assert.ok(!event.data.phone, 'no number in the trigger’s output');
		assert.equal(event.data.from, received.from, 'from is the contact’s id');
		assert.match(event.data.from, /^ct_/);
		const answers = (await chatMessages(event.data.chatId)).filter(
			(message) => message.direction === 'outbound',
		);
		assert.equal(answers.length, 1, 'one answer');
		assert.equal(answers[0].to, event.data.from, 'sent to the contact, named as from names them');
		assert.match(answers[0].content.text, /^Thanks, we received your file /);

		// The owner answers Ada from the business's own phone: her next file still runs the workflow, with the file
		// as binary data for a node that keeps it, and no receipt follows the person's answer.
		await phone.answerAsBusiness(event.data.chatId, OWNER_ANSWER);
		await phone.sendFile('@ada_no_number', 'pdf');
		const [handedOver] = await ctx.settledExecutions(workflowId, 2, SETTLED);
		assert.equal(handedOver.status, 'success', JSON.stringify(handedOver.data?.resultData?.error));
		assert.deepEqual(
			(await chatMessages(event.data.chatId))
				.filter((message) => message.direction === 'outbound')
				.map((message) => message.content.text),
			[answers[0].content.text, OWNER_ANSWER],
			'nothing after the person’s answer',
		);
		const runData = handedOver.data.resultData.runData;
		const [item] = runData['Message received'][0].data.main[0];
		assert.equal(item.json.data.handedOver, true);
		assert.ok(item.binary?.data?.fileName, 'the file is there, as binary data');
		const [handled, notHandled] = runData['A Person Handles the Chat?'][0].data.main;
		assert.deepEqual([handled.length, notHandled.length], [1, 0], 'the item goes the person’s way');
		assert.equal(runData['Confirm receipt'], undefined, 'no receipt');
	});

	test('the owner answers from the phone, or the contact asks for a person: the agent is silent until the chat is given back', async () => {
		const started = Date.now();
		const step = (what) => log(`${what}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
		const agentId = ctx.example('ai-agent-reply.json');
		await pickScriptedModel(ctx, agentId, { model, apiKey: 'sk-e2e-people-0123456789abcdef' });
		await ctx.activate(agentId);
		const hook = await webhookOf(agentId);
		// Two contacts at once (the trigger gathers each chat on its own): Kim's chat the owner takes from the
		// phone, Lee asks for a person.
		const kim = '+14155554801';
		const lee = '+14155554802';
		const chatOf = (number) => `${number.slice(1)}@s.whatsapp.net`;
		const sentTo = async (number) =>
			(await chatMessages(chatOf(number)))
				.filter((message) => message.direction === 'outbound')
				.map((message) => message.content.text);
		const agentAnswers = async () =>
			(await sentTo(kim)).filter((text) => text.startsWith('Agent: ')).length;

		step('published');
		await phone.write(kim, 'Where is my order?');
		await phone.write(lee, 'Can I talk to a person, please?');
		await eventually('the agent’s answer to Kim', async () => (await agentAnswers()) === 1, 60_000);
		// Asked for a person, the example hands Lee's chat over itself and says so, without the model.
		await eventually('Lee’s chat handed over by the example', async () =>
			handOver(chatOf(lee)).then((it) => it.handedOver && it.by === 'api'),
		);

		step('answered');
		// The owner answers Kim from the business's phone: Kim's chat is a person's now.
		await phone.answerAsBusiness(chatOf(kim), OWNER_ANSWER);
		await eventually('Kim’s chat handed over', async () =>
			handOver(chatOf(kim)).then((it) => it.handedOver && it.by === 'business_phone'),
		);

		step('handed over');
		// Both write again: the trigger is told (the deliveries acknowledged), and runs nothing (counted below: a run
		// would have been done long before the next answer).
		const seenBefore = (await acknowledged(hook)).length;
		await phone.write(kim, 'Thanks Sam! And the invoice?');
		await phone.write(lee, 'Hello?');
		await eventually(
			'the handed-over messages’ deliveries acknowledged',
			async () => (await acknowledged(hook)).length >= seenBefore + 2,
		);
		step('the deliveries acknowledged');
		// The quiet period over (no more from the business's phone), Kim's chat is given back by itself and the agent
		// answers the next message.
		await phone.quietPeriodOver(chatOf(kim));
		await eventually('Kim’s chat given back', async () =>
			handOver(chatOf(kim)).then((it) => !it.handedOver),
		);
		step('given back');
		await phone.write(kim, 'One more question');
		await eventually('the agent’s second answer', async () => (await agentAnswers()) === 2, 60_000);

		step('answered again');
		const runs = await ctx.settledExecutions(agentId, 3, SETTLED);
		const sent = { kim: await sentTo(kim), lee: await sentTo(lee) };
		const modelTurns = model.requests.filter((request) => request.body?.messages).length;
		log(
			`measured: executions ${runs.length}, messages ${JSON.stringify(sent)}, model turns ${modelTurns}`,
		);
		assert.deepEqual(
			runs.map((run) => run.status),
			['success', 'success', 'success'],
			'three runs: Kim twice, Lee once; none while a person had the chat',
		);
		assert.deepEqual(sent, {
			kim: ['Agent: Where is my order?', OWNER_ANSWER, 'Agent: One more question'],
			lee: ['A person will answer you here shortly.'],
		});
		assert.equal(
			modelTurns,
			2,
			'the model was asked twice, for Kim: never while a person had the chat',
		);
	});

	test('the owner answers in a group from the phone: auto-reply is silent there until the group is given back', async () => {
		const workflowId = ctx.example('auto-reply.json');
		await ctx.activate(workflowId);
		const hook = await webhookOf(workflowId);
		const member = '+14155554804';
		const group = await ctx.workspace('POST', `/api/v1/instances/${instanceId()}/groups`, {
			subject: 'Regulars',
			participants: [member],
		});
		const inGroup = (text) =>
			ctx.workspace('POST', `/sandbox/instances/${instanceId()}/inbound`, {
				from: member,
				groupId: group.id,
				text,
			});
		const sent = async () =>
			(await chatMessages(group.id))
				.filter((message) => message.direction === 'outbound')
				.map((message) => message.content.text);

		await phone.answerAsBusiness(group.id, OWNER_ANSWER);
		const seenBefore = (await acknowledged(hook)).length;
		await inGroup('Thanks Sam!');
		await eventually(
			'the handed-over message’s delivery acknowledged',
			async () => (await acknowledged(hook)).length > seenBefore,
		);
		await phone.quietPeriodOver(group.id);
		await eventually('the group given back', async () =>
			handOver(group.id).then((it) => !it.handedOver),
		);
		await inGroup('Anyone there?');
		await eventually('auto-reply’s answer', async () => (await sent()).length === 2);

		const runs = await ctx.settledExecutions(workflowId, 1, SETTLED);
		assert.equal(runs.length, 1, 'one run: none while a person had the group');
		assert.deepEqual(await sent(), [
			OWNER_ANSWER,
			'Thanks for your message! We got: "Anyone there?" and will answer shortly.',
		]);
	});
});
