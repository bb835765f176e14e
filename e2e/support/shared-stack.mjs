// One stack per n8n line and mode, shared by the e2e files that need no sandbox options of their own (a boot costs
// 40–90 s; e2e/run.mjs boots each shared stack once per run); a file restarts its n8n or sandbox through run.mjs
// (stack-control.mjs), which puts it back as it booted before the next file. run.mjs starts
// it and writes what a file needs to reach it into a descriptor (mode 0600: it holds keys), named by
// E2E_SHARED_SINGLE and E2E_SHARED_QUEUE. A file attaches to it: it gets an instance and copies of the examples of
// its own, and when it ends, every workflow it published is unpublished, so that the next file starts from a quiet
// n8n. Files on a shared stack run one at a time: the examples' triggers listen to every instance.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { writeSecretJson } from '../../dev/n8n/runtime.mjs';
import { serveStackControl, stackControlClient } from './stack-control.mjs';
import {
	collectPages,
	ensureDemoInstance,
	importExamples,
	N8nClient,
	sandboxCall,
	startHeadlessStack,
} from '../../dev/stack/stack.mjs';

/**
 * The sandbox options every e2e stack starts with: retries of failed deliveries after about 1 s instead of 10 s, so
 * that a test waits less for them.
 */
export const E2E_SANDBOX_ARGS = ['--webhook-retry-base-ms', '1000'];

/** The environment variable naming the descriptor of the shared stack of a mode. */
export const sharedStackVariable = (queue) => (queue ? 'E2E_SHARED_QUEUE' : 'E2E_SHARED_SINGLE');

/**
 * Starts a shared stack in `dir` (run.mjs); returns it and writes its descriptor to `dir/shared-stack.json`.
 * The examples are not imported here: each file imports its own copies.
 */
export async function startSharedStack({ dir, queue, log }) {
	const stack = await startHeadlessStack({
		dir,
		log,
		queue,
		sandboxArgs: E2E_SANDBOX_ARGS,
		importWorkflows: false,
	});
	const control = await serveStackControl(stack, log);
	const descriptor = join(dir, 'shared-stack.json');
	writeSecretJson(descriptor, {
		dir,
		queue,
		control: { url: control.url, token: control.token },
		n8n: {
			url: stack.n8n.url,
			webhookUrl: stack.n8n.webhookUrl,
			apiKey: stack.n8n.client.apiKey,
			cookie: stack.n8n.client.cookie,
		},
		sandbox: { baseUrl: stack.sandbox.baseUrl, keys: stack.sandbox.keys },
		credentials: stack.credentials,
		userFolder: stack.userFolder,
		packageDir: stack.packageDir,
		tarball: stack.tarball,
		nodeTypes: [...stack.nodeTypes],
	});
	return { stack, descriptor, control, booted: stack.state() };
}

/**
 * Attaches a file to the shared stack of `descriptor`: a connected instance of its own (named for `label`) and
 * copies of the examples on it. Returns a stack as startHeadlessStack's, less what would disturb the other files.
 */
export async function attachSharedStack(descriptor, { label }) {
	const shared = JSON.parse(readFileSync(descriptor, 'utf8'));
	// The owner's session too, as the stack's own client has it (n8n 1.x's public API lacks calls the tests make
	// through the REST API): the one the stack signed in with, since n8n answers 429 to a sign-in per file.
	const client = new N8nClient(shared.n8n.url);
	client.apiKey = shared.n8n.apiKey;
	client.cookie = shared.n8n.cookie;
	const { baseUrl, keys } = shared.sandbox;
	const control = stackControlClient(shared.control);
	// A phone number of its own too: the next free one after the files attached before.
	const instances = await sandboxCall(
		baseUrl,
		keys.workspace,
		'GET',
		'/api/v1/instances?limit=100',
	);
	const instance = await ensureDemoInstance(baseUrl, keys.workspace, {
		name: `e2e ${label}`,
		phoneNumber: `+1415555${String(200 + instances.data.length).padStart(4, '0')}`,
	});
	const nodeTypes = new Set(shared.nodeTypes);
	const published = new Set(
		(await client.listAll('/workflows?active=true')).map((workflow) => workflow.id),
	);
	const examples = await importExamples(client, {
		credentials: shared.credentials,
		instance,
		nodeTypes,
		nameSuffix: label,
	});
	return {
		dir: shared.dir,
		userFolder: shared.userFolder,
		packageDir: shared.packageDir,
		tarball: shared.tarball,
		// What a file may change of the stack, run.mjs does for it (support/stack-control.mjs).
		sandbox: {
			baseUrl,
			keys,
			/** Stops the sandbox (kill -9 with `crash`) and starts it again on its port and data file. */
			restart: (options) => control('restartSandbox', options),
		},
		n8n: {
			url: shared.n8n.url,
			webhookUrl: shared.n8n.webhookUrl,
			client,
			/** Stops n8n's processes and starts them again; at another address only on a stack of its own. */
			restart: (options = {}) => {
				if (options.webhookUrl)
					throw new Error('n8n moved on the shared stack: useStack({ own: true })');
				return control('restartN8n');
			},
		},
		queue: shared.queue && {
			n8n: {
				addWebhookProcess: () => control('addWebhookProcess'),
				removeWebhookProcess: (index) => control('removeWebhookProcess', { index }),
			},
		},
		/** What runs now (startStack's state()). */
		state: () => control('state'),
		credentials: shared.credentials,
		instance,
		nodeTypes,
		examples,
		/** Unpublishes every workflow published since the file attached, whoever published it. */
		async stop() {
			const active = await collectPages((cursor) =>
				client.api('GET', `/workflows?active=true&limit=250${cursor ? `&cursor=${cursor}` : ''}`),
			);
			for (const workflow of active.filter((candidate) => !published.has(candidate.id))) {
				await client.api('POST', `/workflows/${workflow.id}/deactivate`);
			}
		},
	};
}
