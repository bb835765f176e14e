import { HAND_OVER_QUIET_MINUTES, type HandOver } from '../../src/client/resources/hand-overs';
import type { SandboxCore } from '../core';
import { handOverIdOf, type HandOverRecord, type InstanceRecord } from '../store/store';

/**
 * Hand-over to a person (SERVICE.md, "people"): a chat handed over is a record (`<instance>/<chat>`), removed when
 * it is given back, so what is kept is bounded by the chats a person handles. While it is there, every message
 * event of the chat says `handedOver: true` (core.ts marks them). A message from the business's own phone hands the
 * chat over, or moves its quiet period on; the check on the sandbox's clock gives back each chat whose quiet period
 * ended, in one step with its event, so a crash either finds it still handed over or its event saved with its id.
 */

const MINUTE_MS = 60_000;

function present(instanceId: string, chatId: string, record?: HandOverRecord): HandOver {
	return {
		instanceId,
		chatId,
		handedOver: record !== undefined,
		since: record?.since ?? null,
		by: record?.by ?? null,
		givesBackAt: record?.givesBackAt ?? null,
	};
}

function recordOf(core: SandboxCore, instanceId: string, chatId: string) {
	return core.store.get('handOvers', handOverIdOf(instanceId, chatId));
}

/** A chat's hand-over as the contract shows it. */
export function handOverOf(core: SandboxCore, instanceId: string, chatId: string): HandOver {
	return present(instanceId, chatId, recordOf(core, instanceId, chatId));
}

function quietPeriodEnd(core: SandboxCore, instance: InstanceRecord): string {
	const minutes = instance.handOverQuietMinutes ?? HAND_OVER_QUIET_MINUTES.default;
	return new Date(core.now().getTime() + minutes * MINUTE_MS).toISOString();
}

/**
 * Hands a chat over (`chat.handed_over`); one handed over already is answered as it stands, with no event, its
 * quiet period moved on when the business wrote from its phone. A burst of the chat held for gathering is
 * delivered at once, marked handed over: gathering never holds a chat a person handles.
 */
export function handOver(
	core: SandboxCore,
	instance: InstanceRecord,
	chatId: string,
	by: HandOverRecord['by'],
): HandOver {
	const kept = recordOf(core, instance.id, chatId);
	if (kept) {
		if (by === 'business_phone') kept.givesBackAt = quietPeriodEnd(core, instance);
		return present(instance.id, chatId, kept);
	}
	const record = core.store.insert('handOvers', {
		id: handOverIdOf(instance.id, chatId),
		workspaceId: instance.workspaceId,
		instanceId: instance.id,
		chatId,
		since: core.now().toISOString(),
		by,
		givesBackAt: quietPeriodEnd(core, instance),
	});
	const state = present(instance.id, chatId, record);
	core.emit(instance.workspaceId, 'chat.handed_over', state);
	core.deliveries.gathering.release(record);
	return state;
}

/** Gives a chat back (`chat.handed_back`, saying why); one not handed over is answered as it stands, with no event. */
export function giveBack(
	core: SandboxCore,
	instance: InstanceRecord,
	chatId: string,
	reason: 'api' | 'quiet_period',
): HandOver {
	const kept = recordOf(core, instance.id, chatId);
	if (!kept) return present(instance.id, chatId);
	core.store.remove('handOvers', kept.id);
	const state = present(instance.id, chatId);
	core.emit(instance.workspaceId, 'chat.handed_back', { ...state, reason });
	return state;
}

/** Sandbox only: a chat's quiet period ends now; the next check gives it back as at its time. */
export function giveBackDueNow(core: SandboxCore, instance: InstanceRecord, chatId: string) {
	const kept = recordOf(core, instance.id, chatId);
	if (kept) kept.givesBackAt = core.now().toISOString();
	return present(instance.id, chatId, kept);
}

/** Starts the check, every `tickMs` of the scheduled sends, for chats whose quiet period ended. */
export function startHandOverChecks(core: SandboxCore): void {
	const tick = () => {
		giveBackDue(core);
		core.scheduler.after(core.scheduledLimits.tickMs, tick);
	};
	tick();
}

function giveBackDue(core: SandboxCore): void {
	const now = core.now().getTime();
	const due = core.store.all('handOvers', (record) => Date.parse(record.givesBackAt) <= now);
	for (const record of due) {
		const instance = core.store.get('instances', record.instanceId);
		if (instance) giveBack(core, instance, record.chatId, 'quiet_period');
		else core.store.remove('handOvers', record.id);
	}
	if (due.length > 0) core.onBackgroundChange();
}
