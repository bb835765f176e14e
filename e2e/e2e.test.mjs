// `npm run test:e2e`: the package in a real n8n (2.41.1, installed as a community package) against the sandbox,
// driven through n8n's public API. Everything runs in a temporary folder on free ports and is stopped at the
// end, whatever happens; a watchdog ends the run after E2E_TIMEOUT_MS (default 15 minutes). See lib/harness.mjs
// for E2E_SKIP_BUILD and E2E_KEEP. The trigger scenarios (lib/trigger-scenarios.mjs) run in queue mode too, in
// exactly-once.test.mjs.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';

import { eventually, useStack } from './support/harness.mjs';
import { resolveAsN8nDoes } from '../dev/n8n/package-install.mjs';
import { defaultStackDir, N8N_HOME, REPO } from '../dev/n8n/runtime.mjs';
import { collectPages, listCredentials, PACKAGE_NAME } from '../dev/stack/stack.mjs';
import { triggerScenarios } from './support/trigger-scenarios.mjs';

const ctx = useStack();

describe('n8n-nodes-multichannel in a real n8n', () => {
	test('n8n knows the package as a community package', async () => {
		const workflows = await ctx.stack.n8n.client.listAll('/workflows');
		assert.ok(workflows.length >= 1, 'examples are imported');
		const types = new Set(workflows.flatMap((workflow) => workflow.nodes.map((node) => node.type)));
		assert.ok(types.has(`${PACKAGE_NAME}.multichannel`));
		const credentials = await listCredentials(ctx.stack.n8n.client);
		assert.deepEqual(credentials.map((credential) => credential.type).sort(), [
			'multichannelApi',
			'multichannelAutomationApi',
			'multichannelShortLinkApi',
		]);
	});

	test("n8n resolves the package's n8n-workflow to its own copy, not the repo's", async () => {
		const { stack } = ctx;
		for (const folder of [ctx.dir, stack.userFolder, defaultStackDir()]) {
			assert.ok(!folder.startsWith(`${REPO}/`), `${folder} is outside the repo`);
		}
		const { normalWalk, withN8nPaths } = await resolveAsN8nDoes(stack.packageDir, 'n8n-workflow');
		// Node's walk up from the installed package finds no n8n-workflow (a folder in the repo would find the
		// repo's own 2.41); n8n's NODE_PATH then gives its own.
		assert.equal(normalWalk, null);
		assert.ok(withN8nPaths?.startsWith(`${N8N_HOME}/`), `${withN8nPaths} is n8n's copy`);
	});

	test(
		'an action workflow sends a text and a media message, creates a group and a link',
		{ timeout: 120_000 },
		async () => {
			const { created, path } = await ctx.activateFixture('actions.json');

			const runId = randomUUID().slice(0, 8);
			const input = {
				instanceId: ctx.stack.instance.id,
				to: '+1 415 555 0177',
				runId,
				participants: '+14155550178, 0044 20 7946 0179',
				code: `launch-${runId}`,
			};
			const { status, text } = await ctx.postToWebhook(path, input);
			assert.equal(status, 200, text);
			const result = JSON.parse(text);

			const [execution] = await ctx.executions(created.id);
			assert.equal(execution.status, 'success');

			const onInstance = `/api/v1/instances/${ctx.stack.instance.id}`;
			const textMessage = await ctx.workspace('GET', `${onInstance}/messages/${result.textId}`);
			assert.equal(textMessage.to, '+14155550177');
			assert.equal(textMessage.type, 'text');
			assert.equal(textMessage.content.text, `Hello from n8n, run ${runId}`);
			const media = await ctx.workspace('GET', `${onInstance}/messages/${result.mediaId}`);
			assert.equal(media.type, 'document');
			assert.equal(media.content.url, 'https://files.example.invalid/brochure.pdf');
			assert.equal(media.content.caption, `Brochure for run ${runId}`);
			// The service answers before it fetches the file; a URL no name resolves for (.invalid) then fails the
			// message, as the README's Limits say, and it is never reported read without its file.
			const failed = await eventually('the media message to fail', async () => {
				const now = await ctx.workspace('GET', `${onInstance}/messages/${result.mediaId}`);
				return now.status === 'failed' && now;
			});
			assert.equal(failed.error.code, 'media_unreachable');
			const group = await ctx.workspace(
				'GET',
				`${onInstance}/groups/${encodeURIComponent(result.groupId)}`,
			);
			assert.equal(group.subject, `Launch team ${runId}`);
			const participants = JSON.stringify(group.participants);
			assert.match(participants, /14155550178/);
			assert.match(participants, /442079460179/);
			const link = await ctx.shortLinks('GET', `/api/v1/links/${result.linkId}`);
			assert.equal(link.code, input.code);
			assert.equal(link.url, 'https://example.com/launch');
			assert.equal(result.shortUrl, `${ctx.stack.sandbox.baseUrl}/${input.code}`);

			await ctx.deactivate(created.id);
		},
	);

	test(
		'a bulk send of 30 items, 5 at a time: one message each, outputs in input order',
		{ timeout: 120_000 },
		async () => {
			const { created, path } = await ctx.activateFixture('bulk-send.json');
			const runId = randomUUID().slice(0, 8);
			const recipients = Array.from({ length: 30 }, (_, n) => ({
				n,
				phone: `+1 415 555 ${String(3100 + n)}`,
			}));
			const { status, text } = await ctx.postToWebhook(path, {
				instanceId: ctx.stack.instance.id,
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
				ctx.workspace(
					'GET',
					`/api/v1/instances/${ctx.stack.instance.id}/messages?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
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

			await ctx.deactivate(created.id);
		},
	);

	triggerScenarios(ctx);

	test(
		'started again with another sandbox port, the stack points the three credentials at it',
		{ timeout: 180_000 },
		async () => {
			const before = ctx.stack.sandbox.baseUrl;
			await ctx.restartStack();
			const { stack } = ctx;
			assert.notEqual(stack.sandbox.baseUrl, before, 'the sandbox runs on another port');
			const credentials = await listCredentials(stack.n8n.client);
			assert.equal(credentials.length, 3, 'no credential was added');
			for (const credential of credentials) {
				// n8n's own credential test: the credential's request against its base URL, with its key. n8n 1.x's
				// public API has no such test: there the stored base URL is read back through its REST API.
				const tested = await stack.n8n.client.request(
					'POST',
					`/api/v1/credentials/${credential.id}/test`,
					{ headers: { 'x-n8n-api-key': stack.n8n.client.apiKey } },
				);
				if (tested.status === 404) {
					const stored = await stack.n8n.client.rest(
						'GET',
						`/credentials/${credential.id}?includeData=true`,
					);
					assert.equal(stored.data.baseUrl, stack.sandbox.baseUrl, credential.name);
				} else {
					assert.equal(tested.json?.status, 'OK', `${credential.name}: ${tested.text}`);
				}
			}
		},
	);
});
