// The trigger scenarios of the end-to-end tests, run in a single n8n (e2e.test.mjs) and in queue mode
// (exactly-once.test.mjs): the click (campaign-link-clicks), auto-reply and automation relay examples, and forged
// deliveries.
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { eventually, nodeOutput } from './harness.mjs';
import { PACKAGE_NAME } from '../../dev/n8n/package-install.mjs';

export const TRIGGER_TYPES = [
	'multichannelTrigger',
	'multichannelShortLinkTrigger',
	'multichannelAutomationTrigger',
].map((name) => `${PACKAGE_NAME}.${name}`);
const BROWSER_UA =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/** Declares the trigger tests against the stack of `ctx` (from useStack). */
/**
 * The workflow's latest execution once it has finished. The reply can reach the sandbox before n8n has saved the
 * execution as finished (in queue mode the worker saves it after its last node), so a status read at once may
 * still say `running`.
 */
async function finishedExecution(ctx, workflowId) {
	return await eventually('the execution to finish', async () => {
		const [latest] = await ctx.executions(workflowId);
		return latest && !['new', 'running', 'waiting'].includes(latest.status) && latest;
	});
}

export function triggerScenarios(ctx) {
	describe('triggers', () => {
		/** The trigger tests run once the trigger nodes are in the package n8n loaded; until then they skip, saying why. */
		const skipped = (t) => {
			const missing = TRIGGER_TYPES.filter((type) => !ctx.stack.nodeTypes.has(type));
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
				const workflowId = ctx.example('campaign-link-clicks.json');
				const code = `e2e-${randomUUID().slice(0, 8)}`;
				const link = await ctx.shortLinks('POST', '/api/v1/links', {
					url: 'https://example.com/e2e',
					code,
				});

				await ctx.activate(workflowId);
				const hooks = await eventually('the link webhook', async () => {
					const page = await ctx.shortLinks('GET', '/api/v1/link-webhooks');
					return page.data.length > 0 && page.data;
				});
				assert.equal(hooks.length, 1);
				assert.match(
					hooks[0].url,
					new RegExp(`^${ctx.stack.n8n.webhookUrl}/webhook/[^/]+/webhook$`),
				);
				assert.deepEqual(hooks[0].events, ['link.clicked']);

				const click = await fetch(link.shortUrl, {
					redirect: 'manual',
					headers: { 'user-agent': BROWSER_UA, referer: 'https://news.example.org/' },
				});
				assert.equal(click.status, 302);

				const execution = await eventually(
					'a successful execution of the click workflow',
					async () => {
						const [latest] = await ctx.executions(workflowId, true);
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

				await ctx.deactivate(workflowId);
				await eventually('the link webhook to be deleted', async () => {
					const page = await ctx.shortLinks('GET', '/api/v1/link-webhooks');
					return page.data.length === 0;
				});
			},
		);

		test(
			'a published automation event is relayed to the customer as a message',
			{ timeout: 120_000 },
			async (t) => {
				if (skipped(t)) return;
				const workflowId = ctx.example('automation-relay.json');
				await ctx.activate(workflowId);
				const hooks = await eventually('the automation webhook', async () => {
					const page = await ctx.automation('GET', '/api/v1/automation/webhooks');
					return page.data.length > 0 && page.data;
				});
				assert.deepEqual(hooks[0].events, ['automation.order.paid']);

				const phone = '+14155550166';
				const orderId = `O-${randomUUID().slice(0, 6)}`;
				await ctx.automation('POST', '/api/v1/automation/events', {
					name: 'order.paid',
					payload: { phone, orderId, total: '42.00 EUR' },
				});
				const message = await ctx.outboundTo(phone);
				assert.equal(
					message.content.text,
					`Thank you! Payment for order ${orderId} (42.00 EUR) has arrived.`,
				);
				const execution = await finishedExecution(ctx, workflowId);
				assert.equal(execution.status, 'success');

				await ctx.deactivate(workflowId);
				await eventually('the automation webhook to be deleted', async () => {
					const page = await ctx.automation('GET', '/api/v1/automation/webhooks');
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
					workflowId = ctx.example('auto-reply.json');
					await ctx.activate(workflowId);
					const hooks = await eventually('the messaging webhook', async () => {
						const page = await ctx.workspace('GET', '/api/v1/webhooks');
						return page.data.length > 0 && page.data;
					});
					assert.equal(hooks.length, 1);
					webhookPath = new URL(hooks[0].url).pathname;

					// The example answers in groups (Chat Type: Groups): a member writes in one.
					const from = '+14155550188';
					const group = await ctx.workspace(
						'POST',
						`/api/v1/instances/${ctx.stack.instance.id}/groups`,
						{ subject: 'Customers', participants: [from] },
					);
					const inbound = await ctx.workspace(
						'POST',
						`/sandbox/instances/${ctx.stack.instance.id}/inbound`,
						{
							from,
							groupId: group.id,
							text: 'Is my order on its way?',
						},
					);
					const reply = await ctx.outboundTo(group.id);
					assert.match(reply.content.text, /Is my order on its way\?/);
					assert.equal(
						reply.content.quotedMessageId,
						inbound.id,
						'the reply quotes the inbound message',
					);
					const execution = await finishedExecution(ctx, workflowId);
					assert.equal(execution.status, 'success');
				},
			);

			test(
				'a forged delivery to the trigger is rejected and starts no execution',
				{ timeout: 60_000 },
				async (t) => {
					if (skipped(t)) return;
					assert.ok(webhookPath, 'the auto-reply workflow is active');
					const before = (await ctx.executions(workflowId)).length;
					const body = JSON.stringify({
						id: `evt_forged${Date.now()}`,
						type: 'message.received',
						createdAt: new Date().toISOString(),
						workspaceId: 'ws_forged',
						data: {
							id: 'msg_forged',
							instanceId: ctx.stack.instance.id,
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
						const response = await fetch(`${ctx.stack.n8n.webhookUrl}${webhookPath}`, {
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
					assert.equal(
						(await ctx.executions(workflowId)).length,
						before,
						'no execution was recorded',
					);
					const page = await ctx.workspace(
						'GET',
						`/api/v1/instances/${ctx.stack.instance.id}/messages?limit=100`,
					);
					assert.ok(
						!page.data.some((message) => message.to === '+14155550199'),
						'nothing was sent',
					);

					await ctx.deactivate(workflowId);
					await eventually('the messaging webhook to be deleted', async () => {
						const hooks = await ctx.workspace('GET', '/api/v1/webhooks');
						return hooks.data.length === 0;
					});
				},
			);
		});
	});
}
