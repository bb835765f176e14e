// Media in, in a real n8n (2.41.1, the package installed as a community package): a contact sends a PDF (the
// sandbox's sample, injected at the sandbox), the Multichannel Trigger with Download Media starts a workflow
// whose item carries the file as binary data, and n8n's own Crypto node hashes that binary: the SHA-256 is the
// one of the bytes sent in. The same workflow downloads the file again with Message → Download Media, whose
// binary hashes the same. Everything is read through n8n's public API (execution data). Then the example
// examples/receive-files.json confirms a received image to its sender by the file's name.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { eventually, nodeOutput, useStack } from './support/harness.mjs';
import { prepareWorkflow } from '../dev/stack/stack.mjs';
import { ensureCredentials } from '../dev/stack/credentials.mjs';

const ctx = useStack();

/** The webhook id of the example's trigger: its webhook at the service has it in its URL. */
const EXAMPLE_WEBHOOK_ID = JSON.parse(
	readFileSync(new URL('../examples/receive-files.json', import.meta.url), 'utf8'),
).nodes.find((node) => node.webhookId).webhookId;

const CREDENTIALS = { multichannelApi: { id: '', name: 'Multichannel sandbox (workspace key)' } };

/** n8n's Crypto node hashing the binary field `data` of its input into `sha256`. */
const hashOf = (name, position) => ({
	parameters: {
		action: 'hash',
		type: 'SHA256',
		binaryData: true,
		binaryPropertyName: 'data',
		dataPropertyName: 'sha256',
		encoding: 'hex',
	},
	id: randomUUID(),
	name,
	type: 'n8n-nodes-base.crypto',
	typeVersion: 2,
	position,
});

function mediaWorkflow(instanceId) {
	return {
		name: 'Media in (e2e)',
		nodes: [
			{
				parameters: {
					events: ['message.received'],
					instanceIds: [instanceId],
					options: { downloadMedia: true },
				},
				id: randomUUID(),
				name: 'Message received',
				type: 'n8n-nodes-multichannel.multichannelTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId: randomUUID(),
				credentials: CREDENTIALS,
			},
			hashOf('Hash received file', [300, -100]),
			{
				parameters: {
					resource: 'message',
					operation: 'downloadMedia',
					instanceId: { __rl: true, mode: 'id', value: '={{ $json.data.instanceId }}' },
					messageId: '={{ $json.data.id }}',
					binaryPropertyName: 'data',
				},
				id: randomUUID(),
				name: 'Download Media',
				type: 'n8n-nodes-multichannel.multichannel',
				typeVersion: 1,
				position: [300, 100],
				credentials: CREDENTIALS,
			},
			hashOf('Hash downloaded file', [600, 100]),
		],
		connections: {
			'Message received': {
				main: [
					[
						{ node: 'Hash received file', type: 'main', index: 0 },
						{ node: 'Download Media', type: 'main', index: 0 },
					],
				],
			},
			'Download Media': { main: [[{ node: 'Hash downloaded file', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** The binary fields of a node's first output item, as the execution data keeps them. */
function binaryOf(execution, nodeName) {
	return execution.data?.resultData?.runData?.[nodeName]?.[0]?.data?.main?.[0]?.[0]?.binary;
}

describe('media in, in a real n8n', () => {
	test(
		'an inbound PDF starts the trigger with the file as binary data, with the SHA-256 of the bytes sent in',
		{ timeout: 180_000 },
		async () => {
			const { stack } = ctx;
			const created = await ctx.api(
				'POST',
				'/workflows',
				prepareWorkflow(mediaWorkflow(stack.instance.id), {
					credentials: stack.credentials,
					instance: stack.instance,
				}),
			);
			await ctx.activate(created.id);
			await eventually('the trigger to register its webhook', async () => {
				const page = await ctx.workspace('GET', '/api/v1/webhooks');
				return page.data.some((hook) => hook.url.startsWith(stack.n8n.webhookUrl));
			});

			// A contact sends the sandbox's sample PDF; the bytes sent in, as the service serves them.
			const inbound = await ctx.workspace(
				'POST',
				`/sandbox/instances/${stack.instance.id}/inbound/media`,
				{ from: '+14155550161', sample: 'pdf', caption: 'The signed contract' },
			);
			const sentIn = Buffer.from(
				await (
					await fetch(`${stack.sandbox.baseUrl}/api/v1/messages/${inbound.id}/media`, {
						headers: { authorization: `Bearer ${stack.sandbox.keys.workspace}` },
					})
				).arrayBuffer(),
			);
			assert.equal(sentIn.subarray(0, 5).toString('latin1'), '%PDF-');
			const sha256 = createHash('sha256').update(sentIn).digest('hex');
			assert.equal(inbound.media.sha256, sha256);

			const [execution] = await eventually('a successful execution with the file', async () => {
				const runs = await ctx.executions(created.id, true);
				return runs.length === 1 && runs[0].status === 'success' && runs;
			});

			// The trigger's item: the event, and the file as binary data named as the contact sent it.
			const [received] = nodeOutput(execution, 'Message received');
			assert.equal(received.type, 'message.received');
			assert.equal(received.data.id, inbound.id);
			assert.equal(received.data.media.sha256, sha256);
			assert.equal(received.mediaNotAttached, undefined);
			const binary = binaryOf(execution, 'Message received')?.data;
			assert.ok(binary, 'the trigger output carries binary data');
			assert.equal(binary.fileName, 'sample-document.pdf');
			assert.equal(binary.mimeType, 'application/pdf');

			// n8n's Crypto node read that binary through n8n's binary data service: same SHA-256.
			const [hashed] = nodeOutput(execution, 'Hash received file');
			assert.equal(hashed.sha256, sha256);
			// Message → Download Media in the same run: the message beside a file with the same SHA-256.
			const [downloaded] = nodeOutput(execution, 'Hash downloaded file');
			assert.equal(downloaded.id, inbound.id);
			assert.equal(downloaded.sha256, sha256);
			assert.equal(binaryOf(execution, 'Download Media')?.data?.fileName, 'sample-document.pdf');

			await ctx.deactivate(created.id);
		},
	);

	test(
		'the receive-files example, as npm start imports it, confirms a received file by its name',
		{ timeout: 120_000 },
		async () => {
			const { stack } = ctx;
			const workflowId = ctx.example('receive-files.json');
			await ctx.activate(workflowId);
			// Only the example's webhook: the first test's is gone, the example's is registered.
			await eventually('the example to be the only webhook', async () => {
				const page = await ctx.workspace('GET', '/api/v1/webhooks');
				return page.data.length === 1 && page.data[0].url.includes(EXAMPLE_WEBHOOK_ID);
			});

			const from = '+14155550162';
			const inbound = await ctx.workspace(
				'POST',
				`/sandbox/instances/${stack.instance.id}/inbound/media`,
				{ from, sample: 'image' },
			);
			const reply = await ctx.outboundTo(from).catch(async (error) => {
				const runs = await ctx.executions(workflowId, true);
				const failed = runs.map((run) => run.data?.resultData?.error?.message ?? run.status);
				throw new Error(`${error.message}; executions: ${JSON.stringify(failed)}`);
			});
			assert.equal(
				reply.content.text,
				`Thanks, we received your file sample-image.png (${inbound.media.size} bytes).`,
			);
			assert.equal(reply.content.quotedMessageId, inbound.id);
			// The reply is sent before the execution is saved as finished (in queue mode, by the worker).
			await eventually('the execution to finish', async () => {
				const [execution] = await ctx.executions(workflowId);
				return execution?.status === 'success';
			});

			await ctx.deactivate(workflowId);
		},
	);

	test(
		"a received file arrives with the credential's key made wrong after activation: receiving reads no key",
		{ timeout: 180_000 },
		async () => {
			const { stack } = ctx;
			const [trigger, hash] = mediaWorkflow(stack.instance.id).nodes;
			const webhookId = randomUUID();
			const created = await ctx.api(
				'POST',
				'/workflows',
				prepareWorkflow(
					{
						name: 'Media in, no key (e2e)',
						nodes: [{ ...trigger, typeVersion: 2, webhookId }, hash],
						connections: {
							'Message received': {
								main: [[{ node: 'Hash received file', type: 'main', index: 0 }]],
							},
						},
						settings: { executionOrder: 'v1' },
					},
					{ credentials: stack.credentials, instance: stack.instance },
				),
			);
			await ctx.activate(created.id);
			await eventually('the trigger to register its webhook', async () => {
				const page = await ctx.workspace('GET', '/api/v1/webhooks');
				return page.data.some((hook) => hook.url.includes(webhookId));
			});
			// The claim (signed with the webhook's secret) and the file (at its signed URL) need no key: with a
			// wrong one, a delivery that used it could neither claim (503, redelivered, never run) nor download.
			const client = stack.n8n.client;
			const wrongKeys = { ...stack.sandbox.keys, workspace: 'mc_live_this_key_is_wrong' };
			await ensureCredentials(client, { baseUrl: stack.sandbox.baseUrl, keys: wrongKeys });
			try {
				const inbound = await ctx.workspace(
					'POST',
					`/sandbox/instances/${stack.instance.id}/inbound/media`,
					{ from: '+14155550163', sample: 'pdf' },
				);
				const [execution] = await eventually('a successful execution with the file', async () => {
					const runs = await ctx.executions(created.id, true);
					return runs.length === 1 && runs[0].status === 'success' && runs;
				});
				const [received] = nodeOutput(execution, 'Message received');
				assert.equal(received.data.id, inbound.id);
				assert.equal(received.mediaNotAttached, undefined);
				assert.match(received.data.media.downloadUrl, /\/api\/v1\/signed-media\//);
				const [hashed] = nodeOutput(execution, 'Hash received file');
				assert.equal(hashed.sha256, inbound.media.sha256);
			} finally {
				await ensureCredentials(client, stack.sandbox);
			}
			await ctx.deactivate(created.id);
		},
	);
});
