import type { SandboxCore } from '../core';
import { sendOutgoing } from '../channel/outgoing';
import { findUrls } from '../links/tracked-links';
import { newId, type CampaignRecipientRecord, type CampaignRecord } from '../store/store';
import { presentCampaign } from './campaigns';
import { announceFailure, followMessage } from './follow';
import { isOptedOut } from './opt-outs';
import { fillIn, moveRecipient, recipientId, wordsOf } from './recipients';
import { firstOpenAt, gapMs } from './send-window';

/**
 * Sends each running campaign's recipients in order, one at its due time, on the sandbox's clock (one check
 * each `scheduledLimits.tickMs`, as scheduled sends). Exactly once: a recipient's message id and state are set
 * in the same store change that makes its message, so after a crash a recipient with a message id is never
 * sent again, and one without was never sent (its message was not kept either). A campaign running at a crash
 * goes on after the restart. The opt-out list is read when the send is due, so a late opt-out wins.
 */

const MINUTE_MS = 60_000;

export function startCampaigns(core: SandboxCore): void {
	core.messageWatchers.push((message) => followMessage(core, message));
	// The next check is set first: a check that fails (logged by the scheduler) never stops the ones after it.
	const tick = () => {
		core.scheduler.after(core.scheduledLimits.tickMs, tick);
		sendDueCampaigns(core);
	};
	core.scheduler.after(0, tick);
}

export function sendDueCampaigns(core: SandboxCore): void {
	let changed = false;
	for (const campaign of core.store.values('campaigns')) {
		if (campaign.status === 'running' && sendDue(core, campaign)) changed = true;
	}
	if (changed) core.onBackgroundChange();
}

/** Sends what is due; completes the campaign once every recipient was sent or skipped. */
function sendDue(core: SandboxCore, campaign: CampaignRecord): boolean {
	const now = core.now().getTime();
	let changed = false;
	while (campaign.status === 'running' && Date.parse(campaign.nextSendAt ?? '') <= now) {
		if (campaign.nextPosition >= campaign.size) {
			complete(core, campaign);
			return true;
		}
		const recipient = core.store.get(
			'campaignRecipients',
			recipientId(campaign.id, campaign.nextPosition),
		);
		if (recipient?.state === 'queued' && recipient.messageId === null) {
			if (isOptedOut(core, campaign.workspaceId, recipient.to)) {
				moveRecipient(core, campaign, recipient, 'skipped', 'opted_out');
			} else if (!send(core, campaign, recipient, now)) {
				break;
			}
		}
		campaign.nextPosition += 1;
		changed = true;
		if (campaign.nextPosition >= campaign.size) complete(core, campaign);
	}
	return changed;
}

/** Sends to one recipient; false (nothing done) while the instance is not connected: the campaign waits. */
function send(
	core: SandboxCore,
	campaign: CampaignRecord,
	recipient: CampaignRecipientRecord,
	now: number,
): boolean {
	const instance = core.store.get('instances', campaign.instanceId);
	if (instance?.status !== 'connected') return false;
	const messageId = newId('msg');
	recipient.messageId = messageId;
	recipient.sentAt = new Date(now).toISOString();
	moveRecipient(core, campaign, recipient, 'sent');
	// The next send a gap after this one was due; after a long stop no more than a minute's sends catch up.
	const due = Math.max(
		Date.parse(campaign.nextSendAt ?? '') + gapMs(campaign.pacing),
		now - MINUTE_MS,
	);
	campaign.nextSendAt = new Date(firstOpenAt(due, campaign.window)).toISOString();
	try {
		sendOutgoing(
			core,
			{
				id: messageId,
				workspaceId: campaign.workspaceId,
				instance,
				to: recipient.to,
				...messageFor(campaign, recipient),
			},
			(message) => (message.campaignRecipientId = recipient.id),
		);
	} catch (error) {
		// Nothing went out: the recipient fails, saying why, and is not tried again.
		const reason = error instanceof Error ? error.message : String(error);
		moveRecipient(core, campaign, recipient, 'failed', reason);
		announceFailure(core, campaign.instanceId, recipient, reason);
	}
	return true;
}

/** The campaign's message as this recipient gets it: variables filled in, links with UTM fields and tracked. */
function messageFor(campaign: CampaignRecord, recipient: CampaignRecipientRecord) {
	const words = withUtm(
		fillIn(wordsOf(campaign.message), recipient.variables),
		campaign.links?.utm,
	);
	const trackLinks = campaign.links?.track === true;
	if ('text' in campaign.message) return { type: 'text', content: { text: words }, trackLinks };
	const { url, mediaType, fileName, mimeType } = campaign.message.media;
	return {
		type: mediaType,
		content: {
			mediaType,
			url,
			caption: words === '' ? null : words,
			fileName: fileName ?? null,
			mimeType: mimeType ?? null,
		},
		fetch: { url, mimeType, fileName },
		trackLinks,
	};
}

/** Each URL of the words with the campaign's `utm_*` parameters added. */
function withUtm(words: string, utm: NonNullable<CampaignRecord['links']>['utm']): string {
	if (!utm) return words;
	let result = '';
	let position = 0;
	for (const { url, index } of findUrls(words)) {
		const tagged = new URL(url);
		for (const [name, value] of Object.entries(utm)) {
			if (value !== undefined) tagged.searchParams.set(`utm_${name}`, value);
		}
		result += words.slice(position, index) + tagged.toString();
		position = index + url.length;
	}
	return result + words.slice(position);
}

/** Every recipient sent or skipped: completed, and `campaign.completed` (its id kept with the campaign). */
function complete(core: SandboxCore, campaign: CampaignRecord): void {
	const now = core.now().toISOString();
	campaign.status = 'completed';
	campaign.completedAt = now;
	campaign.nextSendAt = null;
	campaign.updatedAt = now;
	const event = core.emit(campaign.workspaceId, 'campaign.completed', presentCampaign(campaign));
	campaign.completedEventId = event.id;
}
