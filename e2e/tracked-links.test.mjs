// Tracked links in a real n8n (2.41.1, the package installed as a community package), with the example workflows
// examples/tracked-campaign.json and examples/tracked-campaign-follow-up.json as `npm start` imports them: the
// campaign is sent with tracked links by the first one's own Send node (started by a Webhook node here, since
// n8n's public API cannot run a Manual Trigger), a recipient opens the short link (GET on the sandbox's redirect),
// and the follow-up workflow's Short Link Trigger execution names the message and the recipient; the follow-up
// reaches that recipient once, however often they click.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import {
	BROWSER_UA,
	eventually,
	exampleWithWebhook,
	nodeOutput,
	useStack,
} from './support/harness.mjs';
import { prepareWorkflow } from '../dev/stack/stack.mjs';

const ctx = useStack();

/** The example, sending its campaign to `recipients` when `path` is posted to. */
const campaignWorkflow = (path, recipients) =>
	exampleWithWebhook('tracked-campaign.json', {
		start: 'Send the campaign',
		path,
		change: (node) =>
			node.name === 'Recipients'
				? {
						...node,
						parameters: { ...node.parameters, jsonOutput: JSON.stringify({ recipients }) },
					}
				: node,
	});

describe('tracked links in a real n8n', () => {
	test('the examples are imported by the stack, as by npm start', () => {
		ctx.example('tracked-campaign.json');
		ctx.example('tracked-campaign-follow-up.json');
	});

	test(
		'a campaign sent with tracked links; a click runs the Short Link Trigger with the message and the recipient, and one follow-up goes out',
		{ timeout: 180_000 },
		async () => {
			const { stack } = ctx;
			const path = `tracked-${randomUUID().slice(0, 8)}`;
			const phone = '+14155550181';
			const created = await ctx.api(
				'POST',
				'/workflows',
				prepareWorkflow(campaignWorkflow(path, [{ name: 'Dana', phone: '+1 415 555 0181' }]), {
					credentials: stack.credentials,
					instance: stack.instance,
				}),
			);
			await ctx.activate(created.id);
			const followUps = ctx.example('tracked-campaign-follow-up.json');
			await ctx.activate(followUps);
			await eventually('the Short Link Trigger to register its webhook', async () => {
				const page = await ctx.shortLinks('GET', '/api/v1/link-webhooks');
				return page.data.some((hook) => hook.url.startsWith(stack.n8n.webhookUrl));
			});

			// 1. The campaign, sent by the example's own node with Track Links on.
			const { status, text } = await ctx.postToWebhook(path, {});
			assert.equal(status, 200, text);
			const campaign = await ctx.outboundTo(phone);
			assert.equal(campaign.trackedLinks.length, 1);
			const [tracked] = campaign.trackedLinks;
			assert.equal(tracked.url, 'https://example.com/spring-sale?utm_campaign=spring');
			assert.equal(
				campaign.content.text,
				`Hi Dana, our spring sale starts today: ${tracked.shortUrl}.`,
			);
			const link = await ctx.shortLinks('GET', `/api/v1/links/${tracked.linkId}`);
			assert.deepEqual(link.tags, [campaign.id]);
			assert.equal(link.recipient, phone);

			// 2. The recipient opens the short link.
			const open = () =>
				fetch(tracked.shortUrl, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA } });
			const click = await open();
			assert.equal(click.status, 302);
			assert.equal(click.headers.get('location'), tracked.url);

			// 3. The trigger's execution names the message and the recipient; the follow-up quotes the campaign.
			const clickRuns = async () =>
				(await ctx.executions(followUps, true)).filter(
					(execution) => nodeOutput(execution, 'Tracked link clicked').length > 0,
				);
			const [execution] = await eventually('a successful execution of the click', async () => {
				const runs = await clickRuns();
				return runs.length === 1 && runs[0].status === 'success' && runs;
			});
			const [clicked] = nodeOutput(execution, 'Tracked link clicked');
			assert.equal(clicked.type, 'link.clicked');
			assert.equal(clicked.messageId, campaign.id);
			assert.equal(clicked.recipient, phone);
			assert.equal(clicked.data.click.linkId, tracked.linkId);
			const [followUp] = nodeOutput(execution, 'Follow up');
			assert.equal(followUp.to, phone);
			const stored = await ctx.workspace(
				'GET',
				`/api/v1/instances/${stack.instance.id}/messages/${followUp.id}`,
			);
			assert.equal(stored.content.quotedMessageId, campaign.id);
			assert.match(stored.content.text, /^Glad the sale caught your eye!/);

			// 4. A second click runs the workflow again, but the follow-up is not sent twice (its idempotency key).
			assert.equal((await open()).status, 302);
			await eventually('the second click to run', async () => {
				const runs = await clickRuns();
				return runs.length === 2 && runs.every((run) => run.status === 'success');
			});
			await sleep(500);
			const page = await ctx.workspace(
				'GET',
				`/api/v1/instances/${stack.instance.id}/messages?limit=100`,
			);
			const toPhone = page.data.filter(
				(message) => message.direction === 'outbound' && message.to === phone,
			);
			assert.deepEqual(
				toPhone.map((message) => message.id).sort(),
				[campaign.id, followUp.id].sort(),
			);

			assert.equal((await ctx.executions(created.id)).length, 1, 'the campaign ran once');
			await ctx.deactivate(created.id);
			await ctx.deactivate(followUps);
		},
	);
});
