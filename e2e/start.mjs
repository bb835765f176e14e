#!/usr/bin/env node
// `npm start`: builds the package, starts the sandbox and a real n8n with the package installed as a community
// package, sets up the owner, an API key, the three credentials and the example workflows, prints where to go,
// and stays up until Ctrl-C. State is kept in .sandbox-data/n8n-stack/ (delete it to start afresh).
//   N8N_PORT (default 5678), SANDBOX_PORT (default 8787), MULTICHANNEL_STACK_DIR, MULTICHANNEL_RUNTIME_DIR
import { join } from 'node:path';

import { REPO } from './lib/runtime.mjs';
import { OWNER, startStack } from './lib/stack.mjs';

const dir = process.env.MULTICHANNEL_STACK_DIR ?? join(REPO, '.sandbox-data', 'n8n-stack');
const n8nPort = Number(process.env.N8N_PORT ?? 5678);
const sandboxPort = Number(process.env.SANDBOX_PORT ?? 8787);
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

try {
	stack = await startStack({ dir, n8nPort, sandboxPort, log });
} catch (error) {
	log(`could not start: ${error.message}`);
	process.exit(1);
}

const { examples, timings } = stack;
const lines = [
	'',
	`n8n with n8n-nodes-multichannel is up (ready in ${timings.total} s).`,
	'',
	`  Editor:    ${stack.n8n.url}/`,
	`  Login:     ${OWNER.email} / ${OWNER.password}`,
	`  Console:   ${stack.sandbox.baseUrl}/user/api  (sign in with a key below)`,
	`  Sandbox:   ${stack.sandbox.baseUrl}  (API under /api/v1)`,
	`  Keys:      workspace ${stack.sandbox.keys.workspace}`,
	`             short link ${stack.sandbox.keys.shortLink}`,
	`             automation ${stack.sandbox.keys.automation}`,
	`  Sends from the sandbox instance "${stack.instance.name}" (${stack.instance.id}).`,
	`  Credentials: ${Object.values(stack.credentials)
		.map((credential) => credential.name)
		.join(', ')}`,
	`  Examples:  ${examples.imported.length} imported, ${examples.kept.length} already there` +
		(examples.skipped.length
			? `; not yet imported (node types not in this build): ${examples.skipped
					.map((skipped) => `${skipped.file} (${skipped.missing.join(', ')})`)
					.join('; ')}`
			: ''),
	`  Logs:      ${join(dir, 'n8n.log')}, ${join(dir, 'sandbox.log')}`,
	'',
	'Press Ctrl-C to stop n8n and the sandbox.',
	'',
];
process.stdout.write(`${lines.join('\n')}\n`);

// If n8n or the sandbox dies on its own, stop the other and say so.
for (const service of [stack.n8n.service, stack.sandbox.service]) {
	void service.exited.then(({ code, signal }) => {
		if (stopping) return;
		log(`${service.name} stopped by itself (code ${code}, signal ${signal}); see its log`);
		void shutdown('exit').then(() => process.exit(1));
	});
}
