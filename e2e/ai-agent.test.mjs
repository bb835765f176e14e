// The AI agent example (examples/ai-agent-reply.json, issue 26) in a real n8n, with n8n's own AI Agent, OpenAI Chat
// Model and Simple Memory nodes and the Multichannel node as the agent's tools. The chat model is a scripted
// OpenAI-compatible server on loopback (e2e/support/chat-model.mjs) answering by the script below. Three tests on
// one active workflow:
// 1. a burst of three messages: one execution; the model asks Chat History for 2 messages and the sandbox answers
//    the latest 2; the model's answer reaches the chat quoting the last message; no key or secret in the execution
//    data (the webhook secret but in n8n 1.x's copy of static data);
// 2. memory per chat: the same chat's next message reaches the model with the earlier exchange, another chat's not;
// 3. Send Buttons: the model's titles become buttons agent-1/agent-2; the tap comes back to the agent.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { eventually, log, nodeOutput, useStack } from './support/harness.mjs';
import { startChatModel } from './support/chat-model.mjs';
import { prepareWorkflow } from '../dev/stack/stack.mjs';
import { createCredential } from '../dev/stack/credentials.mjs';

const EXAMPLE = 'ai-agent-reply.json';
const OPENAI_KEY = 'sk-e2e-agent-0123456789abcdef';
/** The limit the model chooses for the Chat History tool: fewer than the chat's messages, so it shows. */
const MODEL_LIMIT = 2;
const BURST = ['hi', 'I ordered yesterday', 'where is it?'];

const SHIPS = 'Your order ships today.';
/** The answer to the burst: the model read the latest two messages. */
const REPLY = `I read: I ordered yesterday / where is it?. ${SHIPS}`;

const ASK_SIZE = 'which size?';
const PICK_ONE = 'Pick one above.';
const LARGE = 'Large it is.';

/** The model's script: the history tool first, then an answer made of what the tool returned. */
function script(body, turn) {
	const tools = (body.tools ?? []).map((tool) => tool.function?.name ?? '');
	// Memory may hold the tool calls of earlier runs: this run's result comes after its last user message.
	const lastUser = body.messages.findLastIndex((message) => message.role === 'user');
	const toolResult = body.messages.slice(lastUser).find((message) => message.role === 'tool');
	const said = body.messages[lastUser]?.content;
	if (said === ASK_SIZE) {
		const buttons = tools.find((name) => /buttons/i.test(name));
		if (!toolResult)
			return {
				toolCall: { name: buttons, args: { question: 'Which size?', choices: 'Small | Large' } },
			};
		return { text: PICK_ONE };
	}
	if (said === 'Tapped: Large') return { text: LARGE };
	if (!toolResult) {
		const history = tools.find((name) => /history/i.test(name));
		if (!history) throw new Error(`no history tool among ${tools.join(', ')} (turn ${turn})`);
		return { toolCall: { name: history, args: { limit: MODEL_LIMIT } } };
	}
	const saw = BURST.filter((text) => String(toolResult.content).includes(text));
	return { text: `I read: ${saw.join(' / ')}. ${SHIPS}` };
}

describe('the AI agent example answers a chat', { timeout: 600_000 }, () => {
	const ctx = useStack();
	let model;
	before(async () => {
		model = await startChatModel(script);
	});
	after(async () => await model?.close());
	/** The example's workflow as the first test created and activated it. */
	let workflowId;
	const write = (from, text) =>
		ctx.workspace('POST', `/sandbox/instances/${ctx.stack.instance.id}/inbound`, { from, text });
	/** The webhook secrets the sandbox stored (only its data file, a journal of JSON lines, has them). */
	const webhookSecrets = () =>
		[
			...readFileSync(join(ctx.dir, 'sandbox-state.json'), 'utf8').matchAll(/"secret":"([^"]+)"/g),
		].map((match) => match[1]);
	/** The messages of the chat with `from`, oldest first (a person's chatId is their number @s.whatsapp.net). */
	const chatOf = async (from) =>
		(
			await ctx.workspace(
				'GET',
				`/api/v1/instances/${ctx.stack.instance.id}/messages?chatId=${encodeURIComponent(`${from.slice(1)}@s.whatsapp.net`)}&limit=50&order=oldest`,
			)
		).data;

	test('a burst of 3: one run, the history tool with the model’s limit, one reply quoting the last message', async () => {
		// npm start imports the example (its chat model credential left for the user to pick).
		ctx.example(EXAMPLE);
		const openAi = await createCredential(ctx.stack.n8n.client, {
			name: 'OpenAI (scripted e2e model)',
			type: 'openAiApi',
			data: { apiKey: OPENAI_KEY, url: model.url, header: false },
		});
		const example = JSON.parse(
			readFileSync(new URL(`../examples/${EXAMPLE}`, import.meta.url), 'utf8'),
		);
		for (const node of example.nodes) if (node.webhookId) node.webhookId = crypto.randomUUID();
		const created = await ctx.api(
			'POST',
			'/workflows',
			prepareWorkflow(
				{ ...example, name: `${example.name} (e2e)` },
				{
					credentials: {
						...ctx.stack.credentials,
						openAiApi: { id: openAi.id, name: openAi.name },
					},
					instance: ctx.stack.instance,
				},
			),
		);
		await ctx.activate(created.id);
		const trigger = example.nodes.find((node) => node.webhookId);
		await eventually('the webhook at the sandbox', async () => {
			const hooks = await ctx.workspace('GET', '/api/v1/webhooks?limit=100');
			return hooks.data.some((hook) => hook.url.includes(trigger.webhookId));
		});

		const from = '+14155553901';
		for (const text of BURST) {
			await write(from, text);
			await sleep(1_000);
		}
		const messagesOfChat = () => chatOf(from);
		const reply = await eventually(
			'the agent’s reply in the chat',
			async () =>
				(await messagesOfChat()).find(
					(message) => message.direction === 'outbound' && message.type === 'text',
				),
			120_000,
		);
		const executions = await eventually('the finished execution', async () => {
			const all = await ctx.executions(created.id, true);
			return all.length > 0 && all.every((execution) => execution.status !== 'running') && all;
		});
		await sleep(5_000);
		const settled = await ctx.executions(created.id, true);
		workflowId = created.id;
		log(
			`model requests: ${model.requests.map((request) => `${request.method} ${request.path} stream=${Boolean(request.body?.stream)}`).join('; ')}`,
		);

		assert.equal(
			settled.length,
			1,
			`one execution for the burst: ${settled.map((execution) => execution.status)}`,
		);
		assert.equal(
			executions[0].status,
			'success',
			JSON.stringify(executions[0].data?.resultData?.error),
		);
		assert.equal(nodeOutput(settled[0], 'Show Typing').length, 1, 'typing was shown first');

		// The model got the burst as one prompt, with the package's tools, and the key of its credential.
		const calls = model.requests.filter((request) => request.body?.messages);
		assert.equal(calls.length, 2, 'the model was asked twice: before and after the tool call');
		const user = calls[0].body.messages.filter((message) => message.role === 'user').at(-1);
		assert.equal(String(user.content), BURST.join('\n'));
		const tools = calls[0].body.tools.map((tool) => tool.function.name);
		assert.equal(tools.length, 3, `three tools: ${tools}`);
		assert.equal(calls[0].headers.authorization, `Bearer ${OPENAI_KEY}`);

		// The tool call reached the sandbox with the model's limit: the sandbox answered the latest 2 of 3.
		const toolResult = calls[1].body.messages.find((message) => message.role === 'tool');
		assert.ok(toolResult, 'the second request carries the tool result');
		assert.match(String(toolResult.content), /where is it\?/);
		assert.match(String(toolResult.content), /I ordered yesterday/);
		assert.doesNotMatch(
			String(toolResult.content),
			/\bhi\b/,
			'not the first message: the limit was 2',
		);

		// The reply: the model's answer, quoting the last message of the burst.
		const inbound = (await messagesOfChat()).filter((message) => message.direction === 'inbound');
		assert.deepEqual(
			inbound.map((message) => message.content.text),
			BURST,
		);
		assert.equal(
			reply.content.text,
			'I read: I ordered yesterday / where is it?. Your order ships today.',
		);
		assert.equal(reply.content.quotedMessageId, inbound.at(-1).id);
		const outbound = (await messagesOfChat()).filter((message) => message.direction === 'outbound');
		assert.equal(outbound.length, 1, 'one reply');

		// No key or secret in what n8n keeps of the run. The webhook secret is kept in the workflow's static data, as
		// n8n's own triggers keep theirs, and n8n 1.x copies static data into each execution's workflowData: there,
		// and only there, it may be (README, Limits).
		const kept = JSON.stringify(settled);
		const keptOutsideStaticData = JSON.stringify(
			settled.map(({ workflowData, ...execution }) => ({
				...execution,
				workflowData: { ...workflowData, staticData: undefined },
			})),
		);
		const keys = [OPENAI_KEY, ...Object.values(ctx.stack.sandbox.keys)];
		const secrets = webhookSecrets();
		assert.equal(keys.length, 4, 'the OpenAI key and the three sandbox keys');
		assert.ok(secrets.length >= 1, 'the webhook secret the sandbox stored');
		const leaked = (text, secret) => {
			const at = text.indexOf(secret);
			return at === -1 ? '' : `…${text.slice(Math.max(0, at - 200), at)}***`;
		};
		for (const key of keys) assert.equal(leaked(kept, key), '', 'a key is in the execution data');
		for (const secret of secrets)
			assert.equal(
				leaked(keptOutsideStaticData, secret),
				'',
				'a webhook secret is in the execution data',
			);
	});

	test('memory is kept per chat: the same person’s next message comes with the earlier answer, another chat’s not', async (t) => {
		if (!workflowId) return t.skip('the first test did not get the workflow running');
		const firstRuns = model.requests.length;
		await write('+14155553901', 'thanks!');
		await write('+14155553902', 'hello');
		await eventually(
			'both chats answered',
			async () =>
				(await ctx.executions(workflowId)).filter((run) => run.status === 'success').length === 3,
			120_000,
		);
		// Each run's first question to the model ends with what the chat just wrote.
		const firstAsks = model.requests
			.slice(firstRuns)
			.filter((request) => request.body?.messages?.at(-1).role === 'user');
		const asked = (text) =>
			firstAsks.find((request) => request.body.messages.at(-1).content === text)?.body.messages ??
			[];
		const said = (messages) =>
			messages
				.filter((message) => message.role !== 'system')
				.map((message) => `${message.role}: ${message.content ?? '(tool call)'}`);
		log(`the model was given, for "thanks!": ${JSON.stringify(said(asked('thanks!')))}`);
		const earlier = said(asked('thanks!'));
		assert.equal(
			earlier[0],
			`user: ${BURST.join('\n')}`,
			'the earlier exchange of this chat first',
		);
		// n8n 2.x keeps the tool call and its result as messages of their own; 1.x writes them into the answer.
		assert.ok(
			earlier.some((line) => line.startsWith('assistant: ') && line.endsWith(REPLY)),
			'with the earlier answer',
		);
		assert.equal(earlier.at(-1), 'user: thanks!');
		assert.deepEqual(said(asked('hello')), ['user: hello'], 'nothing of the other chat');
	});

	test('the Send Buttons tool: the model’s choices become buttons; the tap comes back to the agent', async (t) => {
		if (!workflowId) return t.skip('the first test did not get the workflow running');
		const from = '+14155553903';
		const sentTo = () => chatOf(from);
		await write(from, ASK_SIZE);
		const buttons = await eventually(
			'the buttons in the chat',
			async () => (await sentTo()).find((message) => message.type === 'buttons'),
			60_000,
		);
		assert.equal(buttons.content.text, 'Which size?');
		assert.deepEqual(buttons.content.buttons, [
			{ id: 'agent-1', title: 'Small' },
			{ id: 'agent-2', title: 'Large' },
		]);
		await eventually('the answer after the buttons', async () =>
			(await sentTo()).some((message) => message.content?.text === PICK_ONE),
		);

		const tapped = await ctx.workspace(
			'POST',
			`/sandbox/instances/${ctx.stack.instance.id}/messages/${buttons.id}/tap`,
			{ id: 'agent-2' },
		);
		const answer = await eventually(
			'the answer to the tap',
			async () => (await sentTo()).find((message) => message.content?.text === LARGE),
			60_000,
		);
		await ctx.deactivate(workflowId);
		assert.equal(answer.content.quotedMessageId, tapped.id, 'the answer quotes the tap');
		const tapPrompt = model.requests.find(
			(request) => request.body?.messages?.at(-1).content === 'Tapped: Large',
		);
		assert.ok(tapPrompt, 'the tap reached the model as "Tapped: Large"');
	});
});
