// `npm run test:e2e`: the package in a real n8n (2.40.7, installed as a community package) against the sandbox,
// driven through n8n's public API. Everything runs in a temporary folder on free ports and is stopped at the
// end, whatever happens; a watchdog ends the run after E2E_TIMEOUT_MS (default 10 minutes).
//   E2E_SKIP_BUILD=1   reuse dist/ and the sandbox bundle as they are
//   E2E_KEEP=1         keep the temporary folder (n8n.log, sandbox.log) for a look afterwards
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import {
	collectPages,
	PACKAGE_NAME,
	prepareWorkflow,
	sandboxCall,
	startHeadlessStack,
} from './lib/stack.mjs';

const TIMEOUT_MS = Number(process.env.E2E_TIMEOUT_MS ?? 600_000);
const TRIGGER_TYPES = [
	'multichannelTrigger',
	'multichannelShortLinkTrigger',
	'multichannelAutomationTrigger',
].map((name) => `${PACKAGE_NAME}.${name}`);
const BROWSER_UA =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

const dir = mkdtempSync(join(tmpdir(), 'multichannel-e2e-'));
const log = (message) => process.stderr.write(`[e2e] ${message}\n`);
let stack;

// The run is bounded: whatever hangs, everything started is stopped and the process ends.
const watchdog = setTimeout(() => {
	log(`watchdog: still running after ${TIMEOUT_MS} ms; stopping everything`);
	void (stack?.stop() ?? Promise.resolve()).finally(() => process.exit(1));
}, TIMEOUT_MS);
watchdog.unref();

/** Polls `probe` until it returns something truthy. */
async function eventually(what, probe, timeoutMs = 30_000) {
	const deadline = Date.now() + timeoutMs;
	let last;
	for (;;) {
		try {
			last = await probe();
			if (last) return last;
		} catch (error) {
			last = error;
		}
		if (Date.now() > deadline)
			throw new Error(
				`timed out waiting for ${what} (last: ${last?.message ?? JSON.stringify(last)})`,
			);
		await sleep(250);
	}
}

const api = (...args) => stack.n8n.client.api(...args);
const workspace = (method, path, body, expect) =>
	sandboxCall(stack.sandbox.baseUrl, stack.sandbox.keys.workspace, method, path, body, expect);
const shortLinks = (method, path, body, expect) =>
	sandboxCall(stack.sandbox.baseUrl, stack.sandbox.keys.shortLink, method, path, body, expect);
const automation = (method, path, body, expect) =>
	sandboxCall(stack.sandbox.baseUrl, stack.sandbox.keys.automation, method, path, body, expect);

/** The sandbox instance's outbound message to `to`, once there. */
const outboundTo = (to) =>
	eventually(`a message to ${to} in the sandbox`, async () => {
		const page = await workspace(
			'GET',
			`/api/v1/instances/${stack.instance.id}/messages?limit=100`,
		);
		return page.data.find((message) => message.direction === 'outbound' && message.to === to);
	});

async function executions(workflowId, includeData = false) {
	const page = await api(
		'GET',
		`/executions?workflowId=${workflowId}&includeData=${includeData}&limit=100`,
	);
	return page.data;
}

/** Activates (publishes) a workflow through the public API. */
async function activate(workflowId) {
	await api('POST', `/workflows/${workflowId}/activate`);
}

/** POSTs JSON to a production webhook URL, retrying while n8n is still registering it (404). */
async function postToWebhook(path, body) {
	return await eventually(`the webhook ${path} to answer`, async () => {
		const response = await fetch(`${stack.n8n.url}/webhook/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
			signal: AbortSignal.timeout(60_000),
		});
		return response.status !== 404 && { status: response.status, text: await response.text() };
	});
}

/** Creates and activates a workflow of e2e/workflows/ that a webhook starts; its id and webhook path. */
async function activateFixture(file) {
	const fixture = JSON.parse(readFileSync(new URL(`./workflows/${file}`, import.meta.url), 'utf8'));
	const created = await api(
		'POST',
		'/workflows',
		prepareWorkflow(fixture, { credentials: stack.credentials }),
	);
	const path = fixture.nodes.find((node) => node.type === 'n8n-nodes-base.webhook').parameters.path;
	await activate(created.id);
	return { created, path };
}

async function deactivate(workflowId) {
	await api('POST', `/workflows/${workflowId}/deactivate`);
}

function example(file) {
	const found = [...stack.examples.imported, ...stack.examples.kept].find(
		(entry) => entry.file === file,
	);
	assert.ok(found, `example ${file} was imported`);
	return found.id;
}

function nodeOutput(execution, nodeName) {
	const runs = execution.data?.resultData?.runData?.[nodeName];
	return runs?.[0]?.data?.main?.[0]?.map((item) => item.json) ?? [];
}

before(
	async () => {
		stack = await startHeadlessStack({ dir, log });
		log(
			`n8n ${stack.n8n.url}, sandbox ${stack.sandbox.baseUrl}; timings ${JSON.stringify(stack.timings)}`,
		);
	},
	{ timeout: TIMEOUT_MS },
);

after(async () => {
	const groups = [stack?.n8n.service, stack?.sandbox.service]
		.filter(Boolean)
		.map((service) => service.child.pid);
	await stack?.stop();
	clearTimeout(watchdog);
	for (const pid of groups) {
		// No process of n8n's or the sandbox's groups may be left.
		assert.throws(() => process.kill(-pid, 0), { code: 'ESRCH' }, `process group ${pid} is gone`);
	}
	if (process.env.E2E_KEEP === '1') log(`kept ${dir}`);
	else rmSync(dir, { recursive: true, force: true });
});

describe('n8n-nodes-multichannel in a real n8n', () => {
	test('n8n knows the package as a community package', async () => {
		const workflows = await stack.n8n.client.listAll('/workflows');
		assert.ok(workflows.length >= 1, 'examples are imported');
		const types = new Set(workflows.flatMap((workflow) => workflow.nodes.map((node) => node.type)));
		assert.ok(types.has(`${PACKAGE_NAME}.multichannel`));
		const credentials = await stack.n8n.client.listAll('/credentials');
		assert.deepEqual(credentials.map((credential) => credential.type).sort(), [
			'multichannelApi',
			'multichannelAutomationApi',
			'multichannelShortLinkApi',
		]);
	});

	test(
		'an action workflow sends a text and a media message, creates a group and a link',
		{ timeout: 120_000 },
		async () => {
			const { created, path } = await activateFixture('actions.json');

			const runId = randomUUID().slice(0, 8);
			const input = {
				instanceId: stack.instance.id,
				to: '+1 415 555 0177',
				runId,
				participants: '+14155550178, 0044 20 7946 0179',
				code: `launch-${runId}`,
			};
			const { status, text } = await postToWebhook(path, input);
			assert.equal(status, 200, text);
			const result = JSON.parse(text);

			const [execution] = await executions(created.id);
			assert.equal(execution.status, 'success');

			const onInstance = `/api/v1/instances/${stack.instance.id}`;
			const textMessage = await workspace('GET', `${onInstance}/messages/${result.textId}`);
			assert.equal(textMessage.to, '+14155550177');
			assert.equal(textMessage.type, 'text');
			assert.equal(textMessage.content.text, `Hello from n8n, run ${runId}`);
			const media = await workspace('GET', `${onInstance}/messages/${result.mediaId}`);
			assert.equal(media.type, 'document');
			assert.equal(media.content.url, 'https://example.com/brochure.pdf');
			assert.equal(media.content.caption, `Brochure for run ${runId}`);
			const group = await workspace(
				'GET',
				`${onInstance}/groups/${encodeURIComponent(result.groupId)}`,
			);
			assert.equal(group.subject, `Launch team ${runId}`);
			const participants = JSON.stringify(group.participants);
			assert.match(participants, /14155550178/);
			assert.match(participants, /442079460179/);
			const link = await shortLinks('GET', `/api/v1/links/${result.linkId}`);
			assert.equal(link.code, input.code);
			assert.equal(link.url, 'https://example.com/launch');
			assert.equal(result.shortUrl, `${stack.sandbox.baseUrl}/${input.code}`);

			await deactivate(created.id);
		},
	);

	test(
		'a bulk send of 30 items, 5 at a time: one message each, outputs in input order',
		{ timeout: 120_000 },
		async () => {
			const { created, path } = await activateFixture('bulk-send.json');
			const runId = randomUUID().slice(0, 8);
			const recipients = Array.from({ length: 30 }, (_, n) => ({
				n,
				phone: `+1 415 555 ${String(3100 + n)}`,
			}));
			const { status, text } = await postToWebhook(path, {
				instanceId: stack.instance.id,
				runId,
				recipients,
			});
			assert.equal(status, 200, text);
			const outputs = JSON.parse(text);
			assert.deepEqual(
				outputs.map((message) => message.to),
				recipients.map(({ phone }) => phone.replaceAll(' ', '')),
			);

			// Every message of the run is in the sandbox once, as the node answered.
			const messages = await collectPages((cursor) =>
				workspace(
					'GET',
					`/api/v1/instances/${stack.instance.id}/messages?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
				),
			);
			const stored = messages.filter((message) =>
				message.content?.text?.startsWith(`Bulk ${runId} `),
			);
			assert.equal(stored.length, recipients.length);
			assert.deepEqual(
				stored.map((message) => message.id).sort(),
				outputs.map((message) => message.id).sort(),
			);

			await deactivate(created.id);
		},
	);

	describe('triggers', () => {
		/** The trigger tests run once the trigger nodes are in the package n8n loaded; until then they skip, saying why. */
		const skipped = (t) => {
			const missing = TRIGGER_TYPES.filter((type) => !stack.nodeTypes.has(type));
			if (missing.length === 0) return false;
			t.skip(
				`the built package has no ${missing.join(', ')} yet (dist/nodes/*Trigger): this runs once the trigger nodes land`,
			);
			return true;
		};

		test(
			'activating the click workflow registers a webhook; a click runs it; deactivating removes it',
			{ timeout: 120_000 },
			async (t) => {
				if (skipped(t)) return;
				const workflowId = example('campaign-short-link.json');
				const code = `e2e-${randomUUID().slice(0, 8)}`;
				const link = await shortLinks('POST', '/api/v1/links', {
					url: 'https://example.com/e2e',
					code,
				});

				await activate(workflowId);
				const hooks = await eventually('the link webhook', async () => {
					const page = await shortLinks('GET', '/api/v1/link-webhooks');
					return page.data.length > 0 && page.data;
				});
				assert.equal(hooks.length, 1);
				assert.match(hooks[0].url, new RegExp(`^${stack.n8n.url}/webhook/[^/]+/webhook$`));
				assert.deepEqual(hooks[0].events, ['link.clicked']);

				const click = await fetch(link.shortUrl, {
					redirect: 'manual',
					headers: { 'user-agent': BROWSER_UA, referer: 'https://news.example.org/' },
				});
				assert.equal(click.status, 302);

				const execution = await eventually(
					'a successful execution of the click workflow',
					async () => {
						const [latest] = await executions(workflowId, true);
						return latest?.status === 'success' && latest;
					},
				);
				const [logged] = nodeOutput(execution, 'Log the click');
				assert.equal(logged.code, code);
				assert.equal(logged.linkId, link.id);
				assert.equal(logged.referrer, 'https://news.example.org/');
				assert.ok(
					nodeOutput(execution, 'Clicks by country').length >= 1,
					'the clicks are summarised',
				);

				await deactivate(workflowId);
				await eventually('the link webhook to be deleted', async () => {
					const page = await shortLinks('GET', '/api/v1/link-webhooks');
					return page.data.length === 0;
				});
			},
		);

		test(
			'a published automation event is relayed to the customer as a message',
			{ timeout: 120_000 },
			async (t) => {
				if (skipped(t)) return;
				const workflowId = example('automation-relay.json');
				await activate(workflowId);
				const hooks = await eventually('the automation webhook', async () => {
					const page = await automation('GET', '/api/v1/automation/webhooks');
					return page.data.length > 0 && page.data;
				});
				assert.deepEqual(hooks[0].events, ['automation.order.paid']);

				const phone = '+14155550166';
				const orderId = `O-${randomUUID().slice(0, 6)}`;
				await automation('POST', '/api/v1/automation/events', {
					name: 'order.paid',
					payload: { phone, orderId, total: '42.00 EUR' },
				});
				const message = await outboundTo(phone);
				assert.equal(
					message.content.text,
					`Thank you! Payment for order ${orderId} (42.00 EUR) has arrived.`,
				);
				const [execution] = await executions(workflowId);
				assert.equal(execution.status, 'success');

				await deactivate(workflowId);
				await eventually('the automation webhook to be deleted', async () => {
					const page = await automation('GET', '/api/v1/automation/webhooks');
					return page.data.length === 0;
				});
			},
		);

		describe('auto-reply', () => {
			let workflowId;
			let webhookPath;

			test(
				'an inbound message runs the auto-reply workflow, whose reply is in the sandbox',
				{ timeout: 120_000 },
				async (t) => {
					if (skipped(t)) return;
					workflowId = example('auto-reply.json');
					await activate(workflowId);
					const hooks = await eventually('the messaging webhook', async () => {
						const page = await workspace('GET', '/api/v1/webhooks');
						return page.data.length > 0 && page.data;
					});
					assert.equal(hooks.length, 1);
					webhookPath = new URL(hooks[0].url).pathname;

					const from = '+14155550188';
					const inbound = await workspace(
						'POST',
						`/sandbox/instances/${stack.instance.id}/inbound`,
						{
							from,
							text: 'Is my order on its way?',
						},
					);
					const reply = await outboundTo(from);
					assert.match(reply.content.text, /Is my order on its way\?/);
					assert.equal(
						reply.content.quotedMessageId,
						inbound.id,
						'the reply quotes the inbound message',
					);
					const [execution] = await executions(workflowId);
					assert.equal(execution.status, 'success');
				},
			);

			test(
				'a forged delivery to the trigger is rejected and starts no execution',
				{ timeout: 60_000 },
				async (t) => {
					if (skipped(t)) return;
					assert.ok(webhookPath, 'the auto-reply workflow is active');
					const before = (await executions(workflowId)).length;
					const body = JSON.stringify({
						id: `evt_forged${Date.now()}`,
						type: 'message.received',
						createdAt: new Date().toISOString(),
						workspaceId: 'ws_forged',
						data: {
							id: 'msg_forged',
							instanceId: stack.instance.id,
							from: '+14155550199',
							direction: 'inbound',
							type: 'text',
							content: { text: 'forged' },
						},
					});
					const now = Math.floor(Date.now() / 1000);
					const forged = createHmac('sha256', 'not-the-secret')
						.update(`${now}.${body}`)
						.digest('hex');
					for (const headers of [{ 'x-multichannel-signature': `t=${now},v1=${forged}` }, {}]) {
						const response = await fetch(`${stack.n8n.url}${webhookPath}`, {
							method: 'POST',
							headers: {
								'content-type': 'application/json',
								'x-multichannel-event-id': `evt_forged${now}`,
								...headers,
							},
							body,
						});
						assert.equal(response.status, 401, `forged delivery answered ${response.status}`);
					}
					await sleep(2000);
					assert.equal((await executions(workflowId)).length, before, 'no execution was recorded');
					const page = await workspace(
						'GET',
						`/api/v1/instances/${stack.instance.id}/messages?limit=100`,
					);
					assert.ok(
						!page.data.some((message) => message.to === '+14155550199'),
						'nothing was sent',
					);

					await deactivate(workflowId);
					await eventually('the messaging webhook to be deleted', async () => {
						const hooks = await workspace('GET', '/api/v1/webhooks');
						return hooks.data.length === 0;
					});
				},
			);
		});
	});
});
