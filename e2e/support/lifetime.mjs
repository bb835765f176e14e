// What the lifetime tests (e2e/lifetime*.test.mjs) share: workflows of one Automation Trigger and their webhooks at
// the service, events published with the automation key, the webhooks of every surface against n8n's active
// triggers, loopback proxies as n8n's addresses, scenario 1 (kill -9 during a stream) for either n8n, and a
// workflow deleted behind n8n's back. The counting is in lifetime-count.mjs.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { eventually, log } from './harness.mjs';
import { counting } from './lifetime-count.mjs';
import { startBalancer } from '../../dev/stack/balancer.mjs';
import { run as runCommand, NODE24 } from '../../dev/n8n/runtime.mjs';
import { collectPages, PACKAGE_NAME } from '../../dev/stack/stack.mjs';

/** Events published in one round of scenario 1, and over how long. */
const STREAM = 30;
const STREAM_MS = 6_000;
const ROUNDS = 3;
/** The webhooks of each surface at the sandbox, by the trigger node type that registers them. */
const SURFACES = [
	{ type: `${PACKAGE_NAME}.multichannelTrigger`, key: 'workspace', path: '/api/v1/webhooks' },
	{
		type: `${PACKAGE_NAME}.multichannelShortLinkTrigger`,
		key: 'shortLinks',
		path: '/api/v1/link-webhooks',
	},
	{
		type: `${PACKAGE_NAME}.multichannelAutomationTrigger`,
		key: 'automation',
		path: '/api/v1/automation/webhooks',
	},
];

/** A loopback proxy in front of `port` (n8n, or queue mode's balancer): an address n8n is reached at. */
export async function startProxy(port) {
	const proxy = await startBalancer();
	proxy.backends.push(port);
	return proxy;
}

export const portOf = (url) => Number(new URL(url).port);

/** The sandbox and n8n calls of these scenarios, on the stack of `ctx`. */
export function lifetimeHelpers(ctx) {
	const run = randomUUID().slice(0, 6);
	const automationWebhooks = () =>
		collectPages((cursor) =>
			ctx.automation(
				'GET',
				`/api/v1/automation/webhooks?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
			),
		);

	/**
	 * A new workflow of one Automation Trigger (version 2: no expression evaluated per delivery) for
	 * `automation.life.<run>.<name>`, active; its webhook at the sandbox.
	 */
	async function watch(name) {
		const eventName = `life.${run}.${name}`;
		let path;
		const { created } = await ctx.activateFixture('exactly-once.json', (workflow) => {
			const [trigger] = workflow.nodes;
			trigger.typeVersion = 2;
			trigger.parameters.eventNames = eventName;
			path = `/webhook/${trigger.webhookId}/webhook`;
			return { ...workflow, name: `e2e lifetime: ${name}` };
		});
		const hook = await eventually(`the webhook for ${eventName} at the sandbox`, async () =>
			(await automationWebhooks()).find((candidate) => candidate.url.endsWith(path)),
		);
		return { name: eventName, workflowId: created.id, webhookId: hook.id, path, accepted: [] };
	}

	/** Publishes one event; the id the service accepted it under is kept in `watched.accepted`. */
	async function publish(watched, tag) {
		const event = await ctx.automation('POST', '/api/v1/automation/events', {
			name: watched.name,
			payload: { tag },
		});
		assert.ok(event?.id, `the service accepted event ${tag}`);
		watched.accepted.push(event.id);
		return event.id;
	}

	/** `count` events, evenly over `spreadMs`. */
	async function stream(watched, count, spreadMs, label) {
		for (let n = 0; n < count; n++) {
			await publish(watched, `${label}-${n}`);
			if (n < count - 1) await sleep(spreadMs / count);
		}
	}

	/** The webhook at the sandbox now, or undefined when the service says there is none (404). */
	async function webhookOf(watched) {
		try {
			return await ctx.automation('GET', `/api/v1/automation/webhooks/${watched.webhookId}`);
		} catch (error) {
			if (/: 404 /.test(error.message)) return undefined;
			throw error;
		}
	}

	/** The webhook's delivery log (one entry per event, with its attempts); undefined while it cannot be read. */
	async function deliveriesOf(watched) {
		try {
			return await collectPages((cursor) =>
				ctx.automation(
					'GET',
					`/api/v1/automation/webhooks/${watched.webhookId}/deliveries?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
				),
			);
		} catch {
			return undefined;
		}
	}

	/**
	 * The webhooks of every surface at the sandbox, and the package's trigger nodes of every active workflow in
	 * n8n: `{ automation: { webhooks, triggers }, … }`.
	 */
	async function registrations() {
		const active = (await ctx.stack.n8n.client.listAll('/workflows?active=true')).filter(
			(workflow) => workflow.active,
		);
		const found = {};
		for (const { type, key, path } of SURFACES) {
			const webhooks = await collectPages((cursor) =>
				ctx[key]('GET', `${path}?limit=100${cursor ? `&cursor=${cursor}` : ''}`),
			);
			const triggers = active.flatMap((workflow) =>
				workflow.nodes
					.filter((node) => node.type === type && !node.disabled)
					.map((node) => `${workflow.id}/${node.id}`),
			);
			found[key] = { webhooks, triggers };
		}
		return found;
	}

	/**
	 * One webhook per active trigger on every surface, each registered at `base`, each with an owner of its own;
	 * returns the count per surface.
	 */
	async function assertOnePerTrigger(base, what) {
		// A webhook the service disabled while n8n's processes were starting is enabled by its next ping (≤ 5 s).
		let found;
		const waited = Date.now();
		await eventually(
			'every webhook active',
			async () => {
				found = await registrations();
				return Object.values(found).every(({ webhooks }) =>
					webhooks.every((hook) => hook.status === 'active'),
				);
			},
			30_000,
		).catch(() => undefined);
		const counts = Object.fromEntries(
			Object.entries(found).map(([key, { webhooks, triggers }]) => [
				key,
				{ webhooks: webhooks.length, triggers: triggers.length },
			]),
		);
		log(
			`measured ${what}: webhooks at the service and active triggers, per surface ${JSON.stringify(counts)}; all active after ${Date.now() - waited} ms`,
		);
		for (const [key, { webhooks, triggers }] of Object.entries(found)) {
			assert.equal(
				webhooks.length,
				triggers.length,
				`${what}: ${key} webhooks ${JSON.stringify(webhooks.map((hook) => hook.url))}`,
			);
			for (const hook of webhooks) {
				assert.ok(
					hook.url.startsWith(`${base}/`),
					`${what}: ${key} webhook ${hook.id} delivers to ${hook.url}, not ${base}`,
				);
				assert.equal(hook.status, 'active', `${what}: ${key} webhook ${hook.id} is ${hook.status}`);
			}
			assert.equal(
				new Set(webhooks.map((hook) => hook.owner)).size,
				webhooks.length,
				`${what}: one owner each`,
			);
		}
		return found;
	}

	return {
		run,
		watch,
		publish,
		stream,
		webhookOf,
		deliveriesOf,
		...counting(ctx, deliveriesOf),
		registrations,
		assertOnePerTrigger,
		automationWebhooks,
	};
}

/**
 * n8n as it answers every new request while its database migrates (for minutes, on an upgrade): a bare 200, to
 * a request that could not reach n8n; one that reached it and lost it midway (a kill) gets the proxy's 502.
 */
export function startingUp(res, error) {
	if (error === undefined || error.code === 'ECONNREFUSED') {
		res
			.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
			.end('n8n is starting up. Please wait');
	} else {
		res.writeHead(502, { 'content-type': 'text/plain' }).end('webhook process unreachable\n');
	}
}

/**
 * Scenario 1: kill -9 of n8n's process that takes deliveries at a random moment of a stream of STREAM events over
 * STREAM_MS, then started again (same user folder and database, same URL); ROUNDS rounds. `kill` and `start` are
 * the stack's; `address()`: the proxy n8n is reached through, which answers 502 while n8n is down, but in round 2
 * a bare 200, as n8n does while it migrates; `runsExecutions`: the process killed runs executions (one n8n),
 * which may then end `crashed`.
 */
export function crashScenario(ctx, { label, kill, start, address, runsExecutions }) {
	const { watch, stream, once } = lifetimeHelpers(ctx);
	test(
		`${label} 1: kill -9 at a random moment of a stream of ${STREAM} events, ${ROUNDS} rounds: every event runs once`,
		{ timeout: 600_000 },
		async (t) => {
			const watched = await watch('crash');
			const kills = [];
			t.after(() => (address().unavailable = undefined));
			for (let round = 1; round <= ROUNDS; round++) {
				const killAfter = Math.round(300 + Math.random() * (STREAM_MS - 600));
				address().unavailable = round === 2 ? startingUp : undefined;
				const streaming = stream(watched, STREAM, STREAM_MS, `r${round}`);
				await sleep(killAfter);
				const published = watched.accepted.length - (round - 1) * STREAM;
				kills.push(Date.now());
				await kill();
				const killed = Date.now();
				await start();
				log(
					`measured ${label} 1, round ${round}: killed ${killAfter} ms into the stream (${published} of ${STREAM} events published), up again after ${Date.now() - killed} ms; meanwhile its address answered ${round === 2 ? '200 "n8n is starting up"' : 'as a proxy does (502, 503)'}`,
				);
				await streaming;
				await once(watched, `${label} 1, round ${round}`, kills, runsExecutions);
			}
		},
	);
}

/** The sandbox's options for the stacks that crash and restart n8n: retries 0.2 s, 0.4 s … (6 attempts, ~5 s). */
export const CRASH_OPTIONS = [
	'--rate-limit',
	'0',
	'--webhook-retry-base-ms',
	'200',
	'--webhook-max-attempts',
	'6',
	'--webhook-ping-min-ms',
	'2000',
	'--webhook-ping-max-ms',
	'5000',
	'--webhook-upkeep-ms',
	'250',
];

/**
 * Deletes a workflow from n8n's SQLite database while n8n is stopped, as n8n deletes one (its webhook rows, its
 * published version, the row itself and, by the foreign keys, the rest), but without n8n deactivating it.
 */
export async function deleteFromDatabase(ctx, workflowId) {
	const database = join(ctx.stack.userFolder, '.n8n', 'database.sqlite');
	const script = `
		const { DatabaseSync } = require('node:sqlite');
		const [database, id] = process.argv.slice(1);
		const db = new DatabaseSync(database);
		db.exec('PRAGMA foreign_keys = ON; BEGIN');
		for (const table of ['webhook_entity', 'workflow_published_version'])
			db.prepare('DELETE FROM ' + table + ' WHERE "workflowId" = ?').run(id);
		const { changes } = db.prepare('DELETE FROM workflow_entity WHERE id = ?').run(id);
		if (changes !== 1) throw new Error('no workflow ' + id);
		db.exec('COMMIT');
		db.close();`;
	// Node 24's SQLite (node:sqlite); n8n is stopped, so nothing else writes to the file.
	await runCommand(NODE24, ['--no-warnings', '-e', script, database, workflowId], {
		capture: true,
	});
}
