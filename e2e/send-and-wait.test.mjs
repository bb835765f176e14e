// Send and Wait for Response in a real n8n (2.41.1, or 1.123.81 with MULTICHANNEL_N8N_VERSION; the package installed
// as a community package), with the example examples/approve-refund.json as `npm start` imports it (started by a
// Webhook node here, since n8n's public API cannot run a Manual Trigger): the manager gets the question with
// Approve/Decline buttons, the execution waits with n8n's own waiting, and the sandbox's simulated tap resumes it
// through n8n's waiting webhook. Also: replies from other chats resume nothing; forged resume requests are refused
// and it keeps waiting; a replayed answer does not resume it twice; Limit Wait Time resumes it with timedOut: true;
// n8n restarted while it waits, the answer still resumes it; after each case no answer registration is left at the
// sandbox.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { answeredEvent, post, signed } from './support/forged-answers.mjs';
import { eventually, exampleWithWebhook, log, nodeOutput, useStack } from './support/harness.mjs';
import { N8N_VERSION } from '../dev/n8n/runtime.mjs';
import { prepareWorkflow } from '../dev/stack/stack.mjs';

/** The stack of the `describe` block running: one n8n, then n8n in queue mode. */
let ctx;

const ASK = 'Ask the manager';

/** The example, started by a Webhook node, asking `manager` about `customer`'s refund, waiting `limit`. */
function refundWorkflow(path, { manager, customer, limit }) {
	return exampleWithWebhook('approve-refund.json', {
		start: 'Refund requested',
		path,
		change: (node) => {
			if (node.name === 'Refund details') {
				const details = { order: path, amount: '$120.00', reason: 'Damaged', customer, manager };
				return { ...node, parameters: { ...node.parameters, jsonOutput: JSON.stringify(details) } };
			}
			if (node.name === ASK && limit) {
				const options = { limitWaitTime: { values: { limitType: 'afterTimeInterval', ...limit } } };
				return { ...node, parameters: { ...node.parameters, options } };
			}
			return node;
		},
	});
}

let phones = 0;
const nextPhone = () => `+1415555${String(2100 + phones++).padStart(4, '0')}`;

const answersPath = () => `/api/v1/instances/${ctx.stack.instance.id}/answers`;
/**
 * Limit Wait Time's question while it waits: asked first in a block and checked near its end, so that the tests
 * between wait out n8n's wait tracker (it looks for due executions every 60 s, and once as n8n starts). The other
 * tests count the registrations of their own questions, without it.
 */
let timed;
const registrations = async () =>
	(await ctx.workspace('GET', answersPath())).data.filter(
		(entry) => entry.messageId !== timed?.question.id,
	);
const tap = (messageId, id, from) =>
	ctx.workspace(
		'POST',
		`/sandbox/instances/${ctx.stack.instance.id}/messages/${messageId}/tap`,
		from ? { id, from } : { id },
	);
const write = (from, text) =>
	ctx.workspace('POST', `/sandbox/instances/${ctx.stack.instance.id}/inbound`, { from, text });

/**
 * A workflow's executions as the editor lists them: n8n 1.x's public API leaves out the executions it still holds
 * in memory, which a waiting one started by a webhook is.
 */
async function editorExecutions(workflowId) {
	const { client } = ctx.stack.n8n;
	if (!client.cookie) await client.ownerSession();
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	return (await client.rest('GET', `/executions?filter=${filter}`)).results;
}

/** The one execution of a workflow, once it is in `status`. */
const executionIn = (workflowId, status, timeoutMs = 60_000) =>
	eventually(
		`the execution to be ${status}`,
		async () => {
			const executions =
				status === 'waiting' && N8N_VERSION.startsWith('1.')
					? await editorExecutions(workflowId)
					: await ctx.executions(workflowId, true);
			assert.ok(executions.length <= 1, `one execution, not ${executions.length}`);
			return executions[0]?.status === status && executions[0];
		},
		timeoutMs,
	);

/** Creates and activates the workflow, starts it, and waits until it waits for the manager's answer. */
async function ask({ limit } = {}) {
	const path = `refund-${randomUUID().slice(0, 8)}`;
	const manager = nextPhone();
	const customer = nextPhone();
	const created = await ctx.api(
		'POST',
		'/workflows',
		prepareWorkflow(refundWorkflow(path, { manager, customer, limit }), {
			credentials: ctx.stack.credentials,
			instance: ctx.stack.instance,
		}),
	);
	await ctx.activate(created.id);
	const { status, text } = await ctx.postToWebhook(path, {});
	assert.equal(status, 200, text);
	const question = await ctx.outboundTo(manager);
	const execution = await executionIn(created.id, 'waiting');
	const registration = await eventually('the answer registration', async () =>
		(await registrations()).find((entry) => entry.messageId === question.id),
	);
	assert.equal(question.type, 'buttons');
	return { workflowId: created.id, manager, customer, question, execution, registration };
}

/**
 * What the sandbox stored for a registration (its URL and secret): only its data file has them. The file is a
 * journal (sandbox/store/journal.ts): a header line, then lines of [collection, id, record or null]; the last wins.
 */
function storedRegistration(id) {
	const [, ...lines] = readFileSync(join(ctx.dir, 'sandbox-state.json'), 'utf8').split('\n');
	let stored;
	for (const line of lines.filter(Boolean)) {
		for (const [collection, recordId, record] of JSON.parse(line)) {
			if (collection === 'answers' && recordId === id) stored = record ?? undefined;
		}
	}
	return stored;
}

async function noRegistrationLeft() {
	await eventually('no answer registration left at the sandbox', async () => {
		const left = await registrations();
		return left.length === 0 || (log(`left: ${JSON.stringify(left)}`), false);
	});
}

/** The cases that run in both set-ups: registered in each `describe` block below. */
const shared = {
	approve: [
		'the manager taps Approve: the execution resumes with the answer and the next node runs',
		{ timeout: 180_000 },
		async () => {
			const { workflowId, manager, customer, question } = await ask();
			await tap(question.id, 'approve');

			const execution = await executionIn(workflowId, 'success');
			const [output] = nodeOutput(execution, ASK);
			assert.equal(
				output.respondedAt,
				output.answeredAt,
				"respondedAt, as n8n's own nodes name it",
			);
			assert.deepEqual(
				{ ...output, answeredAt: typeof output.answeredAt, respondedAt: typeof output.respondedAt },
				{
					approved: true,
					timedOut: false,
					answer: {
						type: 'button',
						id: 'approve',
						title: 'Approve refund',
						text: 'Approve refund',
					},
					from: manager,
					answeredAt: 'string',
					respondedAt: 'string',
					messageId: question.id,
				},
			);
			const told = await ctx.outboundTo(customer);
			assert.match(told.content.text, /^Good news: your refund of \$120\.00/);
			assert.equal(nodeOutput(execution, 'Tell the customer: not approved').length, 0);
			await noRegistrationLeft();
		},
	],
	timeoutAsked: [
		'Limit Wait Time: asked with a limit of 0.1 minutes, it waits (it resumes later in the block)',
		{ timeout: 180_000 },
		async () => {
			timed = await ask({ limit: { resumeAmount: 0.1, resumeUnit: 'minutes' } });
		},
	],
	timeoutResumed: [
		'Limit Wait Time: unanswered, it resumes with timedOut: true and the registration is gone',
		{ timeout: 240_000 },
		async () => {
			assert.ok(timed, 'the question with a limit was asked earlier in the block');
			const { workflowId, customer, question } = timed;
			const execution = await executionIn(workflowId, 'success', 150_000);
			assert.deepEqual(nodeOutput(execution, ASK), [
				{
					approved: false,
					timedOut: true,
					answer: null,
					from: null,
					answeredAt: null,
					respondedAt: null,
					messageId: question.id,
				},
			]);
			const told = await ctx.outboundTo(customer);
			assert.match(told.content.text, /a colleague is still looking at it/);
			timed = undefined;
			await noRegistrationLeft();
		},
	],
	restart: [
		'n8n restarted while it waits: the answer still resumes it',
		{ timeout: 300_000 },
		async () => {
			const { workflowId, manager, question } = await ask();
			await ctx.stack.n8n.restart();
			await tap(question.id, 'approve');
			const execution = await executionIn(workflowId, 'success', 120_000);
			const [output] = nodeOutput(execution, ASK);
			assert.equal(output.approved, true);
			assert.equal(output.from, manager);
			await noRegistrationLeft();
		},
	],
};

describe('Send and Wait for Response in a real n8n', () => {
	const stack = useStack();
	before(() => {
		ctx = stack;
	});

	test(...shared.timeoutAsked);

	test('the example is imported by the stack, as by npm start', () => {
		ctx.example('approve-refund.json');
	});

	test(
		'n8n offers the operation to AI agents as a human review tool',
		{ skip: N8N_VERSION.startsWith('1.') && 'n8n 1.x has no human review tools' },
		async () => {
			// n8n generates a "…HitlTool" for every node type with a sendAndWait operation and webhooks, a community
			// package's too: its operation and response type are fixed (approval), its message is the agent's.
			const { client } = ctx.stack.n8n;
			if (!client.cookie) await client.ownerSession();
			const response = await fetch(`${ctx.stack.n8n.url}/types/nodes.json`, {
				headers: { cookie: client.cookie },
			});
			assert.equal(response.status, 200);
			const types = await response.json();
			const hitl = types.find(
				(type) => type.name === 'n8n-nodes-multichannel.multichannelHitlTool',
			);
			assert.ok(hitl, 'n8n-nodes-multichannel.multichannelHitlTool is a node type');
			const hidden = Object.fromEntries(
				hitl.properties
					.filter((property) => property.type === 'hidden')
					.map((property) => [property.name, property.default]),
			);
			assert.deepEqual(hidden, {
				resource: 'message',
				operation: 'sendAndWait',
				responseType: 'approval',
			});
		},
	);

	test(...shared.approve);

	test(
		'replies from other chats resume nothing; forged resume requests are refused and it keeps waiting; a replay does not resume it twice',
		{ timeout: 240_000 },
		async () => {
			const { workflowId, manager, customer, question, registration } = await ask();

			// Another chat: the customer writes, and taps a question of their own; the manager writes text.
			const elsewhere = await ctx.workspace(
				'POST',
				`/api/v1/instances/${ctx.stack.instance.id}/messages/buttons`,
				{ to: customer, text: 'Rate us?', buttons: [{ id: 'approve', title: 'Approve' }] },
			);
			await tap(elsewhere.id, 'approve');
			await write(customer, 'approve');
			await write(manager, 'yes, approve'); // a text, but Approval waits for a tap

			// Forged requests to the resume URL, found in the sandbox's data file as an attacker might find it.
			const { url, secret } = storedRegistration(registration.id);
			const body = answeredEvent(registration, manager, {
				type: 'button',
				id: 'approve',
				title: 'Approve refund',
				text: 'Approve refund',
			});
			const noSignature = await post(url, body);
			const wrongSecret = await post(url, body, signed('x'.repeat(64), body));
			const unsignedUrl = new URL(url);
			unsignedUrl.searchParams.delete('signature');
			const withoutN8nSignature = await post(unsignedUrl, body, signed(secret, body));
			const otherMessage = answeredEvent({ ...registration, messageId: 'msg_other' }, manager, {
				type: 'button',
				id: 'approve',
				title: 'Approve refund',
				text: 'Approve refund',
			});
			const aboutAnotherMessage = await post(url, otherMessage, signed(secret, otherMessage));
			log(
				`forged: ${[noSignature, wrongSecret, withoutN8nSignature, aboutAnotherMessage].map((r) => r.status).join(', ')}`,
			);
			assert.equal(noSignature.status, 401, noSignature.text);
			assert.equal(wrongSecret.status, 401, wrongSecret.text);
			assert.equal(withoutN8nSignature.status, 401);
			assert.equal(aboutAnotherMessage.status, 400, aboutAnotherMessage.text);

			await sleep(3_000);
			await executionIn(workflowId, 'waiting', 5_000);
			assert.equal((await registrations()).length, 1, 'still registered');

			// The manager's own tap on Decline resumes it.
			await tap(question.id, 'decline');
			const execution = await executionIn(workflowId, 'success');
			const [output] = nodeOutput(execution, ASK);
			assert.equal(output.approved, false);
			assert.equal(output.timedOut, false);
			assert.deepEqual(output.answer, {
				type: 'button',
				id: 'decline',
				title: 'Decline',
				text: 'Decline',
			});
			const told = await ctx.outboundTo(customer);
			assert.match(told.content.text, /we could not approve it/);
			await noRegistrationLeft();

			// A correctly signed answer sent again (a replay) does not resume the finished execution.
			const replay = await post(url, body, signed(secret, body));
			log(`replay after resuming: ${replay.status}`);
			await sleep(2_000);
			const executions = await ctx.executions(workflowId, true);
			assert.equal(executions.length, 1);
			assert.equal(executions[0].status, 'success');
			assert.equal(nodeOutput(executions[0], ASK)[0].answer.id, 'decline');
		},
	);

	test(
		'cancelled while it waits: the answer resumes nothing, and the registration goes with that answer',
		{ timeout: 180_000 },
		async () => {
			const { workflowId, execution, question, registration } = await ask();
			const { client } = ctx.stack.n8n;
			if (!client.cookie) await client.ownerSession();
			await client.rest('POST', `/executions/${execution.id}/stop`);
			await executionIn(workflowId, 'canceled', 30_000);
			assert.equal((await registrations()).length, 1, 'n8n does not tell the node');

			await tap(question.id, 'approve');
			await eventually(
				'the registration to go after the answer',
				async () => {
					const left = await registrations();
					if (left.length > 0)
						log(`still there: ${JSON.stringify(storedRegistration(registration.id)?.delivery)}`);
					return left.length === 0;
				},
				60_000,
			);
			await sleep(2_000);
			await executionIn(workflowId, 'canceled', 5_000);
		},
	);

	test(...shared.restart);

	// After the restart: n8n's start looks for due executions at once, so the limit's question resumes then, where
	// the queue-mode block below waits for the wait tracker's 60 s look instead. Each line proves both ways.
	test(...shared.timeoutResumed);
});

describe('Send and Wait for Response in queue mode (main, webhook process, worker)', () => {
	const stack = useStack({ queue: true });
	before(() => {
		ctx = stack;
	});

	test(...shared.timeoutAsked);
	test(...shared.approve);
	test(...shared.timeoutResumed);
	test(...shared.restart);
});
