import { isGroupChatId } from '../../src/client/chat-ids';
import type { SandboxCore } from '../core';
import { sendOutgoing } from '../channel/outgoing';
import {
	newId,
	type CampaignRecord,
	type CampaignRecipientRecord,
	type MessageRecord,
	type RecipientState,
} from '../store/store';
import { optOut } from './opt-outs';
import { moveRecipient, presentRecipient } from './recipients';

/**
 * A recipient follows its message: sent → delivered → read, replied when the contact writes back, failed (with
 * `campaign.recipient.failed`) when it fails. A contact answering a campaign's message with one of its stop
 * words is opted out and told so.
 */

/** How far a recipient has come: a state never goes back (a receipt after a reply leaves it replied). */
const PROGRESS: Partial<Record<RecipientState, number>> = {
	sent: 1,
	delivered: 2,
	read: 3,
	replied: 4,
};

export function followMessage(core: SandboxCore, message: MessageRecord): void {
	if (message.direction === 'inbound') followAnswer(core, message);
	else if (message.campaignRecipientId) followStatus(core, message);
}

function recipientOf(core: SandboxCore, message: MessageRecord) {
	const recipient = message.campaignRecipientId
		? core.store.get('campaignRecipients', message.campaignRecipientId)
		: undefined;
	const campaign = recipient && core.store.get('campaigns', recipient.campaignId);
	return recipient && campaign ? { recipient, campaign } : undefined;
}

function followStatus(core: SandboxCore, message: MessageRecord): void {
	const found = recipientOf(core, message);
	if (!found) return;
	const { recipient, campaign } = found;
	if (message.status === 'failed') {
		const reason = message.error?.code ?? 'failed';
		moveRecipient(core, campaign, recipient, 'failed', reason);
		announceFailure(core, campaign.instanceId, recipient, reason);
	} else if (message.status === 'delivered' || message.status === 'read') {
		moveForward(core, campaign, recipient, message.status);
	}
}

function moveForward(
	core: SandboxCore,
	campaign: CampaignRecord,
	recipient: CampaignRecipientRecord,
	state: 'delivered' | 'read' | 'replied',
): void {
	const now = PROGRESS[recipient.state];
	if (now !== undefined && now < (PROGRESS[state] as number)) {
		moveRecipient(core, campaign, recipient, state);
	}
}

export function announceFailure(
	core: SandboxCore,
	instanceId: string,
	recipient: CampaignRecipientRecord,
	reason: string,
): void {
	core.emit(recipient.workspaceId, 'campaign.recipient.failed', {
		campaignId: recipient.campaignId,
		instanceId,
		recipient: presentRecipient(recipient),
		reason,
	});
}

/** A contact wrote to the instance: an answer to a campaign when the chat's latest message from us was one. */
function followAnswer(core: SandboxCore, message: MessageRecord): void {
	if (!message.from || isGroupChatId(message.chatId)) return;
	const answered = latestSent(core, message);
	const found = answered && recipientOf(core, answered);
	if (!found) return;
	const { recipient, campaign } = found;
	moveForward(core, campaign, recipient, 'replied');
	const words =
		typeof message.content.text === 'string' ? message.content.text.trim().toLowerCase() : '';
	if (!campaign.optOut.stopWords.some((word) => word.trim().toLowerCase() === words)) return;
	optOut(core, campaign.workspaceId, recipient.to, {
		source: 'stop_word',
		campaignId: campaign.id,
		instanceId: campaign.instanceId,
		reason: `answered ${message.content.text as string}`,
	});
	const instance = core.store.get('instances', message.instanceId);
	if (!instance || instance.status !== 'connected') return;
	sendOutgoing(core, {
		id: newId('msg'),
		workspaceId: campaign.workspaceId,
		instance,
		to: recipient.to,
		type: 'text',
		content: { text: campaign.optOut.confirmation },
	});
}

/** The newest message the instance sent into the chat before this one. */
function latestSent(core: SandboxCore, message: MessageRecord): MessageRecord | undefined {
	for (const { message: earlier } of core.store.messageIndex
		.messagesOf(message.instanceId, message.chatId)
		.walk(true)) {
		if (earlier.direction === 'outbound') return earlier;
	}
	return undefined;
}
