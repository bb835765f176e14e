// An answer that comes between the question and its registration, in a real n8n (2.41.1; the package installed as a
// community package), issue 33 finding 2: approve-refund (Send and Wait, Free Text, so that auto-reply would take the
// answer too) started by a Webhook node, with auto-reply active beside it. The refund workflow reaches the sandbox
// through a proxy that holds an answer registration made after the question until the manager's answer is in.
// The answer resumes the refund workflow only: auto-reply does not run for it. Before the fix (question first, then
// the registration) the proxy held the registration, the answer went to auto-reply unmarked, and auto-reply answered
// the manager (and, before the service retried a 409, the refund workflow never resumed: the caught-up answer found
// its execution still running); now the registration comes first (pending) and the question's send binds it, so
// nothing is held.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, request } from 'node:http';
import { after, describe, test } from 'node:test';

import { eventually, exampleWithWebhook, log, nodeOutput, useStack } from './support/harness.mjs';
import { createCredential } from '../dev/stack/credentials.mjs';
import { prepareWorkflow } from '../dev/stack/stack.mjs';

const ctx = useStack();

const MANAGER = '+14155552401';
const CUSTOMER = '+14155552402';
/** Someone else writing after the answer: auto-reply's answer to them says it has seen everything before. */
const LATER = '+14155552403';
const ANSWER = 'Fine by me, refund it';

/**
 * Forwards every request to the sandbox, except that an answer registration made after a question went to the
 * manager is held until `release()`: the widest gap a loaded n8n could leave between the two.
 */
async function raceProxy(target) {
	let questionSent = false;
	let release;
	const released = new Promise((resolve) => (release = resolve));
	const held = [];
	const server = createServer(async (req, res) => {
		const chunks = [];
		for await (const chunk of req) chunks.push(chunk);
		const body = Buffer.concat(chunks);
		const url = new URL(req.url, target);
		const isRegistration = req.method === 'POST' && url.pathname.endsWith('/answers');
		if (isRegistration && questionSent) {
			held.push(url.pathname);
			await released;
		}
		const upstream = request(
			url,
			{ method: req.method, headers: { ...req.headers, host: url.host } },
			(answer) => {
				const parts = [];
				answer.on('data', (part) => parts.push(part));
				answer.on('end', () => {
					const isQuestion = req.method === 'POST' && /\/messages\/\w+$/.test(url.pathname);
					if (isQuestion && answer.statusCode < 300 && JSON.parse(body).to === MANAGER)
						questionSent = true;
					res.writeHead(answer.statusCode, answer.headers);
					res.end(Buffer.concat(parts));
				});
			},
		);
		upstream.on('error', (error) => res.destroy(error));
		upstream.end(body);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		held,
		release,
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

async function messagesTo(to) {
	const page = await ctx.workspace(
		'GET',
		`/api/v1/instances/${ctx.stack.instance.id}/messages?limit=100`,
	);
	return page.data.filter((message) => message.direction === 'outbound' && message.to === to);
}

const write = (from, text) =>
	ctx.workspace('POST', `/sandbox/instances/${ctx.stack.instance.id}/inbound`, { from, text });

/** Every delivery to n8n's triggers so far was acknowledged: n8n has run whatever it was going to run. */
async function allDelivered() {
	const hooks = (await ctx.workspace('GET', '/api/v1/webhooks')).data;
	for (const hook of hooks) {
		const deliveries = (
			await ctx.workspace('GET', `/api/v1/webhooks/${hook.id}/deliveries?limit=100`)
		).data;
		if (!deliveries.every((delivery) => delivery.status === 'succeeded')) return false;
	}
	return true;
}

describe('an answer between the question and its registration', () => {
	let proxy;
	after(async () => await proxy?.close());

	test(
		'resumes Send and Wait only: auto-reply, active beside it, does not run for it',
		{ timeout: 300_000 },
		async () => {
			const { stack } = ctx;
			proxy = await raceProxy(stack.sandbox.baseUrl);
			const viaProxy = await createCredential(stack.n8n.client, {
				name: `Multichannel through the race proxy ${randomUUID().slice(0, 8)}`,
				type: 'multichannelApi',
				data: { baseUrl: proxy.url, apiKey: stack.sandbox.keys.workspace },
			});

			// The auto-reply example answers groups only (so that it coexists with the other examples): here it
			// answers every chat, as a user's own auto-reply would, the manager's included if it ever saw the answer.
			const autoReply = ctx.example('auto-reply.json');
			const imported = await ctx.api('GET', `/workflows/${autoReply}`);
			for (const node of imported.nodes) {
				if (node.type.endsWith('.multichannelTrigger')) delete node.parameters.options?.chatType;
			}
			await ctx.api('PUT', `/workflows/${autoReply}`, {
				name: imported.name,
				nodes: imported.nodes,
				connections: imported.connections,
				settings: { executionOrder: imported.settings?.executionOrder ?? 'v1' },
			});
			await ctx.activate(autoReply);
			await eventually('the auto-reply trigger to register its webhook', async () => {
				const page = await ctx.workspace('GET', '/api/v1/webhooks');
				return page.data.length === 1;
			});

			const path = `refund-${randomUUID().slice(0, 8)}`;
			const details = {
				order: '1042',
				amount: '$120.00',
				reason: 'Damaged',
				customer: CUSTOMER,
				manager: MANAGER,
			};
			const workflow = exampleWithWebhook('approve-refund.json', {
				start: 'Refund requested',
				path,
				change: (node) =>
					node.name === 'Ask the manager'
						? { ...node, parameters: { ...node.parameters, responseType: 'freeText' } }
						: node.name === 'Refund details'
							? { ...node, parameters: { ...node.parameters, jsonOutput: JSON.stringify(details) } }
							: node,
			});
			const refund = await ctx.api(
				'POST',
				'/workflows',
				prepareWorkflow(workflow, {
					credentials: {
						...stack.credentials,
						multichannelApi: { id: viaProxy.id, name: viaProxy.name },
					},
					instance: stack.instance,
				}),
			);
			await ctx.activate(refund.id);

			// The question; the manager answers at once, before a registration that follows it could be made.
			assert.equal((await ctx.postToWebhook(path, {})).status, 200);
			const question = await ctx.outboundTo(MANAGER);
			const answer = await write(MANAGER, ANSWER);
			log(`registrations held back by the proxy: ${proxy.held.length}`);
			proxy.release();

			const [resumed] = await eventually(
				'the refund execution to finish',
				async () => {
					const runs = await ctx.executions(refund.id, true);
					return runs.length === 1 && runs[0].status === 'success' && runs;
				},
				120_000,
			);
			const [output] = nodeOutput(resumed, 'Ask the manager');
			assert.equal(output.answer.text, ANSWER);
			assert.equal(output.messageId, question.id);
			assert.equal(output.timedOut, false);

			// Someone else writes: once auto-reply has answered them and every delivery is acknowledged, whatever
			// n8n was going to run for the manager's answer has run.
			await write(LATER, 'Is the shop open on Sunday?');
			await eventually(
				'auto-reply to answer the later message',
				async () => (await messagesTo(LATER)).length === 1,
				120_000,
			);
			await eventually('every delivery to be acknowledged', allDelivered, 120_000);

			const runs = await eventually(
				"auto-reply's execution for the later message, finished",
				async () => {
					const all = await ctx.executions(autoReply, true);
					const later = all.some((run) => nodeOutput(run, 'Reply')[0]?.to === LATER);
					return later && all.every((run) => run.status === 'success') && all;
				},
				120_000,
			);
			const answered = runs.map((run) => nodeOutput(run, 'Reply')[0]?.to);
			assert.deepEqual(answered, [LATER], 'auto-reply ran for the later message only');
			assert.deepEqual(
				(await messagesTo(MANAGER)).map((message) => message.id),
				[question.id],
				'the manager got the question only',
			);
			const taken = await ctx.workspace(
				'GET',
				`/api/v1/instances/${stack.instance.id}/messages/${answer.id}`,
			);
			assert.equal(taken.answeredQuestion?.messageId, question.id);

			for (const id of [refund.id, autoReply]) await ctx.deactivate(id);
		},
	);
});
