import { SCHEDULE_WINDOW_MINUTES } from '../../src/client/resources/message-sends';
import type { SandboxCore } from '../core';
import { conflict, HttpError, notFound, validationFailed } from '../errors';
import { sendOutgoing, type Outgoing } from './outgoing';
import type { ScheduledMessageRecord } from '../store/store';
import { chatIdOf } from './chat-ids';
import { sentTo } from './people';
import { requireConnected } from './instance-records';
import { presentMessage } from '../present';

/**
 * Scheduled sends (`sendAt` on any send): kept in the `scheduledMessages` collection, so they survive a restart,
 * and sent by one check each `tickMs` through the same path as a send made then (outgoing.ts). A time missed while
 * the sandbox was down is sent on start, with `late: true`. Bounded per workspace: those still to go, and those
 * that went or were cancelled (the oldest dropped).
 */

const MINUTE_MS = 60_000;

/** Keeps a send for its time and answers it as it stands: status `scheduled`. */
export function scheduleSend(
	core: SandboxCore,
	outgoing: Outgoing,
	sendAt: string,
	isQuestion: boolean,
) {
	if (isQuestion) {
		throw validationFailed([
			{ field: 'body.sendAt', message: 'a Send and Wait question is sent now, not scheduled' },
		]);
	}
	const ahead = Date.parse(sendAt) - core.now().getTime();
	const { min, max } = SCHEDULE_WINDOW_MINUTES;
	if (ahead < min * MINUTE_MS || ahead > max * MINUTE_MS) {
		throw validationFailed([
			{
				field: 'body.sendAt',
				message: `must be from 1 minute to 90 days ahead (it is ${describeAhead(ahead)}; the service's time is ${core.now().toISOString()})`,
			},
		]);
	}
	const { workspaceId } = outgoing;
	const pending = core.store.all(
		'scheduledMessages',
		(record) => record.workspaceId === workspaceId && record.status === 'scheduled',
	).length;
	if (pending >= core.scheduledLimits.pendingPerWorkspace) {
		throw new HttpError(
			409,
			'too_many_scheduled',
			`This workspace has ${pending} scheduled sends still to go, the most it may keep; cancel one or wait until some have gone`,
		);
	}
	const now = core.now().toISOString();
	const record = core.store.insert('scheduledMessages', {
		id: outgoing.id,
		workspaceId,
		instanceId: outgoing.instance.id,
		chatId: chatIdOf(outgoing.to),
		to: outgoing.to,
		type: outgoing.type,
		content: outgoing.content,
		...(outgoing.media ? { media: outgoing.media } : {}),
		...(outgoing.trackLinks ? { trackLinks: true } : {}),
		...(outgoing.fetch ? { fetch: outgoing.fetch } : {}),
		...(outgoing.mentioned?.mentions || outgoing.mentioned?.mentionEveryone
			? { mentioned: outgoing.mentioned }
			: {}),
		status: 'scheduled',
		sendAt: new Date(Date.parse(sendAt)).toISOString(),
		createdAt: now,
		updatedAt: now,
	});
	return presentScheduled(core, record);
}

function describeAhead(ms: number): string {
	if (ms < 0) return `${Math.round(-ms / 1000)} s in the past`;
	if (ms < MINUTE_MS) return `${Math.round(ms / 1000)} s ahead`;
	return `${Math.round(ms / (24 * 60 * MINUTE_MS))} days ahead`;
}

/** A scheduled send as a message: the one that went once it went, else as it stands. */
export function presentScheduled(core: SandboxCore, record: ScheduledMessageRecord) {
	const sent = record.status === 'sent' ? core.store.get('messages', record.id) : undefined;
	if (sent) return presentMessage(sent);
	const instance = core.store.get('instances', record.instanceId);
	return {
		id: record.id,
		instanceId: record.instanceId,
		chatId: record.chatId,
		direction: 'outbound',
		from: instance?.phoneNumber ?? null,
		to: instance ? sentTo(core, instance, record.to) : record.to,
		type: record.type,
		...(record.media ? { media: { ...record.media } } : {}),
		status: record.status,
		content: record.content,
		error: null,
		createdAt: record.createdAt,
		updatedAt: record.updatedAt,
		sendAt: record.sendAt,
		...(record.sentAt ? { sentAt: record.sentAt } : {}),
		...(record.late ? { late: true } : {}),
		...(record.cancelledAt ? { cancelledAt: record.cancelledAt } : {}),
	};
}

/** Cancels a send still to go; one that went or was cancelled says so. */
export function cancelScheduled(core: SandboxCore, record: ScheduledMessageRecord) {
	if (record.status === 'sent') {
		throw conflict(
			'already_sent',
			`Message ${record.id} was sent at ${record.sentAt ?? record.sendAt}; a sent message cannot be cancelled (delete it instead)`,
		);
	}
	if (record.status === 'cancelled') {
		throw conflict(
			'already_cancelled',
			`Message ${record.id} was already cancelled at ${record.cancelledAt ?? record.updatedAt}`,
		);
	}
	const now = core.now().toISOString();
	record.status = 'cancelled';
	record.cancelledAt = now;
	record.updatedAt = now;
	keepFinishedWithinBound(core, record.workspaceId);
	return presentScheduled(core, record);
}

/** The scheduled send of this id, or why not: 409 when the message was sent without `sendAt`, else 404. */
export function requireScheduled(
	core: SandboxCore,
	workspaceId: string,
	instanceId: string,
	messageId: string,
): ScheduledMessageRecord {
	const record = core.store.find('scheduledMessages', workspaceId, messageId);
	if (record && record.instanceId === instanceId) return record;
	const message = core.store.find('messages', workspaceId, messageId);
	if (message && message.instanceId === instanceId) {
		throw conflict(
			message.sendAt ? 'already_sent' : 'not_scheduled',
			message.sendAt
				? `Message ${messageId} was sent at ${message.sentAt ?? message.createdAt}; a sent message cannot be cancelled`
				: `Message ${messageId} was sent at once, not scheduled; there is nothing to cancel`,
		);
	}
	throw notFound('Scheduled message', messageId);
}

/** Starts the check for due sends; sends at once, `late`, those whose time passed while the sandbox was down. */
export function startScheduledSends(core: SandboxCore): void {
	sendDue(core, true);
	const tick = () => {
		sendDue(core, false);
		core.scheduler.after(core.scheduledLimits.tickMs, tick);
	};
	core.scheduler.after(core.scheduledLimits.tickMs, tick);
}

function sendDue(core: SandboxCore, late: boolean): void {
	const now = core.now().getTime();
	const due = core.store.all(
		'scheduledMessages',
		(record) => record.status === 'scheduled' && Date.parse(record.sendAt) <= now,
	);
	if (due.length === 0) return;
	due.sort((a, b) => Date.parse(a.sendAt) - Date.parse(b.sendAt));
	for (const record of due) sendScheduled(core, record, late);
	core.onBackgroundChange();
}

function sendScheduled(core: SandboxCore, record: ScheduledMessageRecord, late: boolean): void {
	const now = core.now().toISOString();
	record.status = 'sent';
	record.sentAt = now;
	record.updatedAt = now;
	if (late) record.late = true;
	let message;
	try {
		const instance = requireConnected(core, record.workspaceId, record.instanceId);
		message = sendOutgoing(core, {
			id: record.id,
			workspaceId: record.workspaceId,
			instance,
			to: record.to,
			type: record.type,
			content: record.content,
			...(record.media ? { media: record.media } : {}),
			...(record.trackLinks ? { trackLinks: true } : {}),
			...(record.fetch ? { fetch: record.fetch } : {}),
			...(record.mentioned ? { mentioned: record.mentioned } : {}),
			scheduled: { sendAt: record.sendAt, late },
		});
	} catch (error) {
		failScheduled(core, record, error);
		keepFinishedWithinBound(core, record.workspaceId);
		return;
	}
	core.emit(record.workspaceId, 'message.scheduled_sent', presentMessage(message), {
		instanceId: record.instanceId,
	});
	keepFinishedWithinBound(core, record.workspaceId);
}

/** The instance was deleted or disconnected at the time: the message fails (`message.failed`), saying why. */
function failScheduled(core: SandboxCore, record: ScheduledMessageRecord, error: unknown): void {
	const instance = core.store.get('instances', record.instanceId);
	const now = core.now().toISOString();
	const message = core.store.insert('messages', {
		id: record.id,
		workspaceId: record.workspaceId,
		instanceId: record.instanceId,
		chatId: record.chatId,
		direction: 'outbound',
		from: instance?.phoneNumber ?? null,
		to: record.to,
		type: record.type,
		status: 'failed',
		content: record.content,
		error: {
			code: 'not_sent_at_its_time',
			message: `The scheduled send could not go at its time: ${error instanceof Error ? error.message : String(error)}`,
		},
		createdAt: now,
		updatedAt: now,
		sendAt: record.sendAt,
		sentAt: now,
		...(record.late ? { late: true } : {}),
	});
	if (!instance) return;
	core.emit(record.workspaceId, 'message.failed', presentMessage(message), {
		instanceId: record.instanceId,
	});
}

/** Drops the oldest sent or cancelled records of a workspace beyond the bound. */
function keepFinishedWithinBound(core: SandboxCore, workspaceId: string): void {
	const finished = core.store.all(
		'scheduledMessages',
		(record) => record.workspaceId === workspaceId && record.status !== 'scheduled',
	);
	const excess = finished.length - core.scheduledLimits.finishedPerWorkspace;
	if (excess <= 0) return;
	finished
		.sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt))
		.slice(0, excess)
		.forEach((record) => core.store.remove('scheduledMessages', record.id));
}
