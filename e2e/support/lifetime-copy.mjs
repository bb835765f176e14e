// lifetime.test.mjs "single 7" (issue 44, item 7): a move under n8n's workflow publication service (n8n 2.x's
// default), with the workflow republished while deliveries come through the old address; then a copy of that n8n
// started beside it: its user folder copied while n8n was stopped (the same encryption key, so the same instance
// id and owner keys, the same workflows and static data), on a port and address of its own, without the
// publication service so that it activates its workflows at start, as a staging copy would.
import assert from 'node:assert/strict';
import { cpSync, rmSync } from 'node:fs';

import { SingleN8n } from '../../dev/stack/n8n-process.mjs';
import { freePort } from '../../dev/stack/processes.mjs';
import { eventually, log } from './harness.mjs';
import { startProxy } from './lifetime.mjs';

/** What the copy's n8n logs when the service refuses its registration (sandbox/delivery/owner-check.ts). */
const REFUSED = /could not register the webhook of n8n workflow "([^"]+)".*two receivers claim one owner/;

/** Starts `n8n` with the publication service on; the stack's later starts go without it, as before. */
async function startWithPublicationService(n8n, options) {
	const before = process.env.N8N_USE_WORKFLOW_PUBLICATION_SERVICE;
	process.env.N8N_USE_WORKFLOW_PUBLICATION_SERVICE = 'true';
	try {
		await n8n.start(options);
	} finally {
		if (before === undefined) delete process.env.N8N_USE_WORKFLOW_PUBLICATION_SERVICE;
		else process.env.N8N_USE_WORKFLOW_PUBLICATION_SERVICE = before;
	}
}

/**
 * `n8n()`: the stack's SingleN8n, reached at an address that goes on routing to it; `proxies`: where a new
 * address is kept to be closed after the file.
 */
export async function publicationMoveAndCopy(ctx, helpers, { n8n, proxies }) {
	const { watch, publish, stream, webhookOf, once } = helpers;
	const watched = await watch('publication');
	await publish(watched, 'before');
	await once(watched, 'single 7, before');

	// Moved, the old address still routing, with the publication service on: n8n calls no trigger at start.
	const moved = await startProxy(n8n().port);
	proxies.push(moved);
	await n8n().stop();
	const copyFolder = `${ctx.stack.userFolder}-copy`;
	cpSync(ctx.stack.userFolder, copyFolder, { recursive: true, verbatimSymlinks: true });
	await stream(watched, 3, 300, 'while stopped');
	await startWithPublicationService(n8n(), { webhookUrl: moved.url });
	// Republished while the held deliveries come through the old address (the race of issue 44).
	await Promise.all([
		stream(watched, 8, 2_000, 'moved'),
		(async () => {
			await ctx.deactivate(watched.workflowId);
			await ctx.activate(watched.workflowId);
		})(),
	]);
	await stream(watched, 3, 600, 'after the republish');
	await once(watched, 'single 7, moved under the publication service and republished');
	const hook = await webhookOf(watched);
	assert.ok(hook.url.startsWith(moved.url), `the webhook delivers to ${hook.url}`);

	// The copy: refused, saying why in its own log; the original runs every event.
	const copy = new SingleN8n({
		userFolder: copyFolder,
		port: await freePort(),
		logFile: `${copyFolder}.log`,
		log,
	});
	try {
		await copy.start();
		const refused = await eventually(
			"the copy's registration refused",
			() => REFUSED.exec(copy.main.output),
			60_000,
		);
		log(`measured single 7: the copy logged "${refused[0].slice(0, 300)}…"`);
		assert.equal(refused[1], 'e2e lifetime: publication');
		await stream(watched, 5, 1_000, 'beside the copy');
		await once(watched, 'single 7, a copy beside the original');
		const after = await webhookOf(watched);
		assert.equal(after.url, hook.url, 'the webhook still delivers to the original');
		assert.equal(after.secretFingerprint, hook.secretFingerprint, 'and signs with its secret');
	} finally {
		await copy.stop();
		rmSync(copyFolder, { recursive: true, force: true });
	}
}
