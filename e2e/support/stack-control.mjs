// The channel through which a file on a shared stack restarts its n8n or its sandbox: e2e/run.mjs holds the shared
// stack's processes, so a file asks it over HTTP on loopback (the address and a token in the stack's descriptor),
// and run.mjs does it. Between files, run.mjs puts the stack back as it booted (healSharedStack), whatever a file
// left. Plain Node.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

/** What a file may ask of the shared stack. */
const ACTIONS = {
	state: (stack) => stack.state(),
	restartSandbox: (stack, { crash = false }) => stack.sandbox.restart({ crash }),
	restartN8n: (stack) => stack.n8n.restart(),
	addWebhookProcess: async (stack) => void (await stack.queue.n8n.addWebhookProcess()),
	removeWebhookProcess: (stack, { index }) => stack.queue.n8n.removeWebhookProcess(index),
};

/** Serves ACTIONS on `stack` on a free loopback port, one at a time; returns `{ url, token, close }`. */
export async function serveStackControl(stack, log) {
	const token = randomBytes(16).toString('hex');
	let busy = Promise.resolve();
	const server = createServer((req, res) => {
		let body = '';
		req.on('data', (chunk) => (body += chunk));
		req.on('end', () => {
			busy = busy.then(async () => {
				const answer = (status, json) =>
					res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
				if (req.headers.authorization !== `Bearer ${token}`) return answer(401, {});
				try {
					const { action, options = {} } = JSON.parse(body);
					if (!(action in ACTIONS)) throw new Error(`no action ${action}`);
					if (action !== 'state') log(`${action} ${JSON.stringify(options)}, asked by a file`);
					answer(200, { result: (await ACTIONS[action](stack, options)) ?? null });
				} catch (error) {
					answer(500, { error: error.stack ?? String(error) });
				}
			});
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		token,
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

/** Asks the shared stack's run.mjs for `action` (one of ACTIONS); resolves with its result once done. */
export function stackControlClient({ url, token }) {
	return async (action, options = {}) => {
		const response = await fetch(url, {
			method: 'POST',
			headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
			body: JSON.stringify({ action, options }),
			// An n8n restart in queue mode takes a minute or two on a loaded machine.
			signal: AbortSignal.timeout(600_000),
		});
		const answer = await response.json();
		if (!response.ok) throw new Error(`the shared stack's ${action}: ${answer.error}`);
		return answer.result;
	};
}

/**
 * Puts the shared stack back as it was when it booted (`booted`: its state() then): the sandbox running, n8n's
 * processes as they were (a webhook process a file added stopped, n8n restarted when one is missing). Says what
 * it did; fails when PostgreSQL or Redis is down, which no file may do on a shared stack.
 */
export async function healSharedStack(stack, booted, log) {
	const now = stack.state();
	if (now.postgres === false || now.redis === false)
		throw new Error(`the shared stack's PostgreSQL or Redis is down: ${JSON.stringify(now)}`);
	if (!now.sandbox) {
		log('the sandbox was down: started again');
		await stack.sandbox.restart();
	}
	for (const name of now.n8n.filter((name) => !booted.n8n.includes(name))) {
		log(`${name} was added: stopped`);
		await stack.queue.n8n.removeWebhookProcess(Number(name.replace('webhook-', '')));
	}
	if (stack.state().n8n.join() !== booted.n8n.join()) {
		log(`n8n's processes were ${stack.state().n8n.join(', ')}: restarted`);
		await stack.n8n.restart();
	}
}
