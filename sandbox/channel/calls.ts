import type { SandboxCore } from '../core';
import { sendOutgoing } from './outgoing';
import { newId, type CallRecord, type InstanceRecord } from '../store/store';
import { chatIdOf } from './chat-ids';
import { recordOfInstance } from './instance-records';

/**
 * Calls to an instance's number: `call.received` while it rings, then `call.missed` (hung up, or not
 * answered within the ring time) or `call.rejected` (a reject call, or the instance's reject-calls setting).
 * Calls are records of their own, kept across restarts; a call still ringing at start is missed when its ring
 * time is over.
 */

/** Bound on the calls kept per instance: past it the oldest finished ones go. */
export const MAX_CALLS_PER_INSTANCE = 1000;

export const requireCall = recordOfInstance('calls', 'Call');

export const presentCall = (call: CallRecord) => ({
	id: call.id,
	instanceId: call.instanceId,
	from: call.from,
	chatId: call.chatId,
	media: call.media,
	isGroup: call.groupId !== null,
	groupId: call.groupId,
	status: call.status,
	rejectedBy: call.rejectedBy,
	rejectMessageId: call.rejectMessageId,
	createdAt: call.createdAt,
	endedAt: call.endedAt,
});

function emitCall(core: SandboxCore, call: CallRecord): void {
	const type =
		call.status === 'ringing'
			? 'call.received'
			: call.status === 'rejected'
				? 'call.rejected'
				: 'call.missed';
	core.emit(call.workspaceId, type, presentCall(call), { instanceId: call.instanceId });
}

/** A contact calls the instance (the sandbox's `call`): it rings, or is rejected at once by the setting. */
export function receiveCall(
	core: SandboxCore,
	instance: InstanceRecord,
	input: { from: string; media: 'voice' | 'video'; groupId: string | null },
): CallRecord {
	const now = core.now();
	const call = core.store.insert('calls', {
		id: newId('call'),
		workspaceId: instance.workspaceId,
		instanceId: instance.id,
		from: input.from,
		chatId: chatIdOf(input.groupId ?? input.from),
		media: input.media,
		groupId: input.groupId,
		status: 'ringing',
		rejectedBy: null,
		rejectMessageId: null,
		ringsUntil: new Date(now.getTime() + core.simulation.callRingMs).toISOString(),
		createdAt: now.toISOString(),
		endedAt: null,
	});
	dropOldCalls(core, instance.id);
	emitCall(core, call);
	const settings = instance.callSettings;
	if (settings?.rejectCalls) {
		rejectCall(core, instance, call, 'setting', settings.rejectCallsText ?? undefined);
	} else {
		scheduleMissed(core, call);
	}
	return call;
}

function scheduleMissed(core: SandboxCore, call: CallRecord): void {
	const delay = Date.parse(call.ringsUntil) - core.now().getTime();
	core.scheduler.after(delay, () => {
		const current = core.store.get('calls', call.id);
		if (!current || current.status !== 'ringing') return;
		endCall(core, current, 'missed');
		core.onBackgroundChange();
	});
}

/** After a restart: calls still ringing are missed when their ring time is over (at once if it is). */
export function resumeCalls(core: SandboxCore): void {
	for (const call of core.store.all('calls', (record) => record.status === 'ringing')) {
		scheduleMissed(core, call);
	}
}

/** The caller hangs up (the sandbox's `hangUp`): a call still ringing is missed. */
export function hangUp(core: SandboxCore, call: CallRecord): void {
	if (call.status === 'ringing') endCall(core, call, 'missed');
}

function endCall(core: SandboxCore, call: CallRecord, status: 'missed' | 'rejected'): void {
	call.status = status;
	call.endedAt = core.now().toISOString();
	emitCall(core, call);
}

export function rejectCall(
	core: SandboxCore,
	instance: InstanceRecord,
	call: CallRecord,
	by: 'api' | 'setting',
	text: string | undefined,
): void {
	call.rejectedBy = by;
	if (text !== undefined) call.rejectMessageId = sendText(core, instance, call.from, text);
	endCall(core, call, 'rejected');
}

/** The text to a rejected caller: an ordinary sent message, through the one path of every send. */
function sendText(core: SandboxCore, instance: InstanceRecord, to: string, text: string): string {
	const outgoing = {
		id: newId('msg'),
		workspaceId: instance.workspaceId,
		instance,
		to,
		type: 'text',
		content: { text },
	};
	return sendOutgoing(core, outgoing).id;
}

function dropOldCalls(core: SandboxCore, instanceId: string): void {
	const calls = core.store.all('calls', (call) => call.instanceId === instanceId);
	let excess = calls.length - MAX_CALLS_PER_INSTANCE;
	for (const call of calls.sort((a, b) => a.createdAt.localeCompare(b.createdAt))) {
		if (excess <= 0) break;
		if (call.status === 'ringing') continue;
		core.store.remove('calls', call.id);
		excess--;
	}
}
