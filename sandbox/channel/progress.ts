import type { SandboxCore } from '../core';
import type { MessageRecord } from '../store/store';
import { numberExists } from './chat-ids';
import { presentMessage } from '../present';

/**
 * The simulated recipient of each message sent: it acknowledges the message (`message.delivered`, or
 * `message.failed` for a number not on the channel) and then reads it (`message.read`).
 */

export function setMessageStatus(
	core: SandboxCore,
	message: MessageRecord,
	status: MessageRecord['status'],
): void {
	message.status = status;
	message.updatedAt = core.now().toISOString();
	for (const watch of core.messageWatchers) watch(message);
}

/** The simulated recipient: delivered (or failed) after a moment, then read. */
export function scheduleProgress(core: SandboxCore, message: MessageRecord): void {
	if (message.direction !== 'outbound') return;
	if (message.status === 'sent') {
		core.scheduler.after(core.simulation.deliveredAfterMs, () => advance(core, message.id, 'sent'));
	} else if (message.status === 'delivered') {
		core.scheduler.after(core.simulation.readAfterMs, () => advance(core, message.id, 'delivered'));
	}
}

function advance(core: SandboxCore, messageId: string, from: 'sent' | 'delivered'): void {
	const message = core.store.get('messages', messageId);
	// Deleted meanwhile, or moved on by something else: nothing to do.
	if (!message || message.status !== from) return;
	const subject = { instanceId: message.instanceId };
	// Only a number can be off the channel: a group or a person named by their contact id is on it.
	if (from === 'sent' && message.to?.startsWith('+') && !numberExists(message.to)) {
		message.error = {
			code: 'recipient_not_on_channel',
			message: `${message.to} is not on the messaging channel`,
		};
		setMessageStatus(core, message, 'failed');
		core.emit(message.workspaceId, 'message.failed', presentMessage(message), subject);
	} else {
		const next = from === 'sent' ? 'delivered' : 'read';
		setMessageStatus(core, message, next);
		core.emit(
			message.workspaceId,
			next === 'delivered' ? 'message.delivered' : 'message.read',
			presentMessage(message),
			subject,
		);
		scheduleProgress(core, message);
	}
	core.onBackgroundChange();
}

/** After a restart: outbound messages still on their way carry on. */
export function resumeMessages(core: SandboxCore): void {
	for (const message of core.store.all('messages')) scheduleProgress(core, message);
}
