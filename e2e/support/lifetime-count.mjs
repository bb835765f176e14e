// Counting, for the lifetime tests (e2e/lifetime*.test.mjs): once the service has nothing left to deliver, how many
// executions n8n ran for each event the service accepted, read through n8n's public API by the id of the published
// event each execution output, and whether that is exactly one successful execution per event.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';

import { log, nodeOutput } from './harness.mjs';

/** Counts are settled when nothing changed for this long (and the service has nothing left to deliver). */
const STABLE_MS = 2_000;
/**
 * How long before a kill of a webhook process an execution it created may still have had no answer sent: n8n
 * creates the execution, queues it, then answers; milliseconds, seconds on a loaded machine.
 */
const ANSWER_WINDOW_MS = 5_000;

/** A moment for the log; an execution never started may have none. */
const when = (ms) => (Number.isFinite(ms) ? new Date(ms).toISOString() : 'never');
const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

/** How many times each value occurs: `{ "200": 49, "503": 1 }`. */
export function tally(values) {
	const counts = {};
	for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
	return counts;
}

/**
 * The event an execution started with: its trigger's output, or, for an execution n8n marked `crashed` before
 * the trigger's output was recorded, the item waiting on its execution stack.
 */
function eventOf(execution) {
	return (
		nodeOutput(execution, 'Event')[0] ??
		execution.data?.executionData?.nodeExecutionStack?.[0]?.data?.main?.[0]?.[0]?.json
	);
}

/**
 * The counting of the stack of `ctx` (from useStack); `deliveriesOf(watched)`: the webhook's delivery log at the
 * service, undefined while it cannot be read.
 */
export function counting(ctx, deliveriesOf) {
	/**
	 * What the service's attempts to this webhook were answered: `{ "200": 31, "HTTP 200 without an
	 * acknowledgement…": 1, "no answer": 12 }`.
	 */
	function answers(deliveries) {
		return tally(
			(deliveries ?? []).flatMap((delivery) =>
				delivery.attempts.map((attempt) =>
					attempt.error === null
						? String(attempt.responseStatus)
						: attempt.responseStatus === null
							? 'no answer'
							: attempt.error.slice(0, 60),
				),
			),
		);
	}

	/**
	 * Waits until the workflow's executions settle: the service has nothing left to deliver to the webhook (no
	 * delivery pending or held), every accepted event has an execution, all are finished, and nothing changed for
	 * STABLE_MS; or, the service idle, nothing changed for 10 s (an event lost: the assertions say which). Gives up
	 * after `timeoutMs`. Returns the executions (status, start, event id) and what the service's log says.
	 */
	async function settle(watched, timeoutMs = 150_000) {
		const started = Date.now();
		const deadline = started + timeoutMs;
		let last;
		let since = Date.now();
		let deliveries;
		for (;;) {
			const executions = await ctx.executions(watched.workflowId);
			deliveries = await deliveriesOf(watched);
			const idle =
				deliveries !== undefined &&
				deliveries.every((delivery) => !['pending', 'held'].includes(delivery.status));
			const seen = `${executions.map((execution) => `${execution.id}:${execution.status}`).join()}|${idle}`;
			if (seen !== last) [last, since] = [seen, Date.now()];
			const finished = executions.every((execution) => FINISHED.has(execution.status));
			const quiet = Date.now() - since;
			// Idle and unchanged for 10 s ends it too, even with an execution left `new` by a kill (the assertions
			// say whether that one is explained).
			const done =
				idle &&
				((finished && executions.length >= watched.accepted.length && quiet >= STABLE_MS) ||
					quiet >= 10_000);
			if (done || Date.now() > deadline) break;
			await sleep(500);
		}
		const executions = (await ctx.executions(watched.workflowId, true)).map((execution) => ({
			id: execution.id,
			status: execution.status,
			startedAt: Date.parse(execution.startedAt ?? execution.createdAt),
			eventId: eventOf(execution)?.data?.id ?? 'none',
			tag: eventOf(execution)?.data?.payload?.tag,
			stoppedAt: execution.stoppedAt,
			error: execution.data?.resultData?.error?.message,
		}));
		return {
			executions,
			deliveries: tally((deliveries ?? []).map((delivery) => delivery.status)),
			answers: answers(deliveries),
			log: deliveries ?? [],
			ms: Date.now() - started,
		};
	}

	/**
	 * Exactly one successful execution for each event the service accepted for `watched`, and nothing else.
	 *
	 * `kills`: when an n8n process was killed (scenario 1): with `runsExecutions`, the one n8n, which runs the
	 * executions too; without, a webhook process of queue mode. Moments of a delivery are
	 * then beyond any trigger (n8n 2.40.7; "Known limits" at the end of e2e/lifetime.test.mjs), and the execution
	 * cut there stands in doubt beside the event's run, at most one per event: an execution `running` at the kill
	 * is `crashed` after the restart and never run again (the kill came after n8n answered: it is the event's only
	 * execution; or before: the service delivers the event again and it runs once more); an execution still `new`
	 * at the kill (created, not yet started, not yet answered) is run by n8n's own recovery at the start, and the
	 * service's redelivery runs the event again. A webhook process killed after it created and queued an execution
	 * but before its answer went out: the worker runs that execution, the service had no answer, its redelivery
	 * runs the event again (the execution created up to ANSWER_WINDOW_MS before the kill stands in doubt).
	 */
	async function assertOnce(
		{ executions, deliveries, answers: answered, log: deliveryLog = [], ms },
		watched,
		what,
		kills = [],
		runsExecutions = true,
	) {
		const ids = watched.accepted;
		const killedBetween = (from, to) => kills.some((at) => from <= at && at <= to);
		// Only for events with more than one execution: the list gives no creation time.
		const byEvent = {};
		for (const execution of executions) (byEvent[execution.eventId] ??= []).push(execution);
		for (const execution of executions) {
			const alone = byEvent[execution.eventId].length < 2 && execution.status !== 'new';
			if (kills.length === 0 || alone) continue;
			const { createdAt } = await ctx.api('GET', `/executions/${execution.id}`);
			execution.createdAt = Date.parse(createdAt);
		}
		// Only the process that runs executions leaves them crashed.
		const cut = (execution) =>
			runsExecutions &&
			execution.status === 'crashed' &&
			killedBetween(execution.startedAt, Infinity);
		const recovered = (execution) =>
			execution.status === 'success' &&
			execution.createdAt !== undefined &&
			(runsExecutions
				? killedBetween(execution.createdAt, execution.startedAt)
				: killedBetween(execution.createdAt, execution.createdAt + ANSWER_WINDOW_MS));
		// A webhook process killed after it created an execution and before it queued it leaves it `new` for good;
		// the service had no answer, so its redelivery runs the event.
		const left = (execution) =>
			!runsExecutions &&
			execution.status === 'new' &&
			execution.createdAt !== undefined &&
			killedBetween(execution.createdAt, execution.createdAt + ANSWER_WINDOW_MS);
		const inDoubt = (execution) => cut(execution) || recovered(execution);
		const runs = (id, test) => (byEvent[id] ?? []).filter(test).length;
		const plain = (execution) => execution.status === 'success' && !recovered(execution);
		const twice = ids.filter((id) => runs(id, plain) > 1 || runs(id, inDoubt) > 1);
		const never = ids.filter((id) => runs(id, plain) + runs(id, inDoubt) === 0);
		const strangers = executions.filter(
			(execution) => !ids.includes(execution.eventId) && !left(execution),
		);
		const failed = executions.filter(
			(execution) => execution.status !== 'success' && !cut(execution) && !left(execution),
		);
		const count = (test) => executions.filter(test).length;
		const statuses = tally(executions.map((execution) => execution.status));
		const errors = failed.length
			? `, errors ${JSON.stringify(tally(failed.map((execution) => execution.error ?? execution.status)))}`
			: '';
		const doubts = !(count(inDoubt) + count(left))
			? ''
			: runsExecutions
				? `; cut by the kill: ${ids.filter((id) => runs(id, cut) && !runs(id, plain)).length} crashed after n8n answered (not run again), ${ids.filter((id) => runs(id, cut) && runs(id, plain)).length} crashed before (run again), ${count(recovered)} new at the kill, run by n8n's recovery and again by the redelivery`
				: `; cut by the kill: ${count(recovered)} queued by the webhook process just before it was killed, before its answer went out, run by the worker and again by the redelivery; ${count(left)} created and never queued (left \`new\`), run by the redelivery`;
		const summary = `${what}: ${executions.length} executions for ${ids.length} events (${twice.length} ran more than once, ${never.length} never; executions ${JSON.stringify(statuses)}${doubts}${errors}; deliveries ${JSON.stringify(deliveries)}, their attempts answered ${JSON.stringify(answered)}; settled in ${ms} ms)`;
		log(`measured ${summary}`);
		// What went wrong or stands in doubt, execution by execution.
		const odd = new Set([...twice, ...never]);
		for (const execution of executions.filter(
			(candidate) =>
				odd.has(candidate.eventId) || inDoubt(candidate) || candidate.status !== 'success',
		)) {
			log(
				`  execution ${execution.id} of ${execution.eventId} (${execution.tag}): ${execution.status}, ${execution.createdAt ? `created ${when(execution.createdAt)}, ` : ''}started ${when(execution.startedAt)}, stopped ${execution.stoppedAt}`,
			);
		}
		// And how the service delivered each of those events: every attempt, its moment and its answer.
		for (const delivery of deliveryLog.filter((candidate) => odd.has(candidate.eventId))) {
			log(
				`  delivery of ${delivery.eventId}: ${delivery.status}; ${delivery.attempts.map((attempt) => `#${attempt.attempt} ${attempt.at} ${attempt.responseStatus ?? attempt.error} in ${attempt.durationMs} ms`).join('; ')}`,
			);
		}
		if (kills.length)
			log(`  killed at ${kills.map((at) => new Date(at).toISOString()).join(', ')}`);
		assert.deepEqual(
			{
				twice,
				never,
				strangers: strangers.map((execution) => execution.id),
				failed: failed.map((execution) => execution.id),
			},
			{ twice: [], never: [], strangers: [], failed: [] },
			summary,
		);
	}

	/** Settles and asserts exactly once (`kills` and `runsExecutions` as assertOnce's). */
	const once = async (watched, what, kills, runsExecutions) =>
		await assertOnce(await settle(watched), watched, what, kills, runsExecutions);

	return { settle, assertOnce, once };
}
