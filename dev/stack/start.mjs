#!/usr/bin/env node
// `npm start`: builds the package, starts the sandbox and a real n8n with the package installed as a community
// package, sets up the owner, an API key, the three credentials (pointed at this sandbox) and the example
// workflows, prints where to go, and stays up until Ctrl-C. State is kept outside the repo, in
// ~/.cache/n8n-nodes-multichannel/stack-<checkout>/ (delete it to start afresh).
//   --queue   n8n in queue mode: PostgreSQL, Redis, main, webhook process and worker (state in <stack>/queue/)
//   N8N_PORT (default 5678), SANDBOX_PORT (default 8787), N8N_WEBHOOK_PORT (queue mode; default: a free port),
//   MULTICHANNEL_STACK_DIR, MULTICHANNEL_RUNTIME_DIR
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { defaultStackDir, REPO } from '../n8n/runtime.mjs';
import { OWNER, startStack } from './stack.mjs';

const { values: flags } = parseArgs({ options: { queue: { type: 'boolean', default: false } } });
const dir = process.env.MULTICHANNEL_STACK_DIR ?? defaultStackDir();
const n8nPort = Number(process.env.N8N_PORT ?? 5678);
const sandboxPort = Number(process.env.SANDBOX_PORT ?? 8787);
const queue = flags.queue && {
	webhookProcesses: 1,
	webhookPort: Number(process.env.N8N_WEBHOOK_PORT ?? 0),
};
const log = (message) => process.stderr.write(`[start] ${message}\n`);

let stack;
let stopping = false;
async function shutdown(signal) {
	if (stopping) return;
	stopping = true;
	log(`${signal}: stopping n8n and the sandbox`);
	await stack?.stop();
	log('stopped');
	process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

const oldDir = join(REPO, '.sandbox-data', 'n8n-stack');
if (existsSync(oldDir) && !process.env.MULTICHANNEL_STACK_DIR) {
	log(`${oldDir} (an earlier npm start's state, inside the repo) is no longer used; delete it`);
}

try {
	stack = await startStack({ dir, n8nPort, sandboxPort, queue, log });
} catch (error) {
	log(`could not start: ${error.message}`);
	process.exit(1);
}

const { examples, timings } = stack;
const logDir = queue ? join(dir, 'queue') : dir;
const lines = [
	'',
	`n8n with n8n-nodes-multichannel is up (ready in ${timings.total} s).`,
	'',
	`  Editor:    ${stack.n8n.url}/`,
	`  Login:     ${OWNER.email} / ${OWNER.password}`,
	...(queue
		? [
				`  Queue mode: webhooks at ${stack.n8n.webhookUrl}/ (a balancer in front of the webhook process),`,
				`             a worker; PostgreSQL on port ${stack.queue.postgres.port}, Redis on port ${stack.queue.redis.port}`,
			]
		: []),
	`  Console:   ${stack.sandbox.baseUrl}/user/api  (sign in with a key below)`,
	`  Sandbox:   ${stack.sandbox.baseUrl}  (API under /api/v1)`,
	`  Keys:      workspace ${stack.sandbox.keys.workspace}`,
	`             short link ${stack.sandbox.keys.shortLink}`,
	`             automation ${stack.sandbox.keys.automation}`,
	`  Sends from the sandbox instance "${stack.instance.name}" (${stack.instance.id}).`,
	`  Credentials (pointed at ${stack.sandbox.baseUrl}): ${Object.values(stack.credentials)
		.map((credential) => credential.name)
		.join(', ')}`,
	`  Examples:  ${examples.imported.length} imported, ${examples.kept.length} already there` +
		(examples.skipped.length
			? `; not yet imported (node types not in this build): ${examples.skipped
					.map((skipped) => `${skipped.file} (${skipped.missing.join(', ')})`)
					.join('; ')}`
			: ''),
	`  State:     ${dir}`,
	`  Logs:      ${logDir}/*.log, ${join(dir, 'sandbox.log')}`,
	'',
	'Press Ctrl-C to stop n8n and the sandbox.',
	'',
];
process.stdout.write(`${lines.join('\n')}\n`);

// If a process dies on its own, stop the others and say so.
const watched = [
	stack.sandbox.service,
	...stack.n8n.services,
	...(queue ? [stack.queue.postgres.service, stack.queue.redis.service] : []),
];
for (const service of watched) {
	void service.exited.then(({ code, signal }) => {
		if (stopping) return;
		log(`${service.name} stopped by itself (code ${code}, signal ${signal}); see its log`);
		void shutdown('exit').then(() => process.exit(1));
	});
}
