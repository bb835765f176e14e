import { toE164 } from '../../src/client/phone-number';
import { CAMPAIGN_LIMITS } from '../../src/client/resources/campaigns';
import type { SandboxCore } from '../core';
import type { CampaignRecipientRecord, CampaignRecord, RecipientState } from '../store/store';
import { isOptedOut } from './opt-outs';

/**
 * A campaign's recipients: each a record of its own (`<campaignId>/<position>`), checked and kept in the order
 * given, each number once per campaign. The campaign's counts move with every change of a recipient's state.
 */

export type RecipientResultName =
	| 'accepted'
	| 'duplicate'
	| 'invalid'
	| 'opted_out'
	| 'closed'
	| 'refused';

/** A type, not an interface: the contract's loose schema wants an index signature. */
export type RecipientResult = {
	to: string;
	result: RecipientResultName;
	reason: string | null;
	recipientId: string | null;
};

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

export const recipientId = (campaignId: string, position: number) => `${campaignId}/${position}`;

/** The words of the message: its text or its caption. */
export function wordsOf(message: CampaignRecord['message']): string {
	return 'text' in message ? message.text : (message.media.caption ?? '');
}

/** The names of the variables the message uses, each once. */
export function variablesUsed(message: CampaignRecord['message']): string[] {
	return [...new Set([...wordsOf(message).matchAll(PLACEHOLDER)].map((match) => match[1]))];
}

/** The words with each `{{name}}` replaced by the recipient's variable. */
export function fillIn(words: string, variables: Record<string, string>): string {
	return words.replace(PLACEHOLDER, (placeholder, name: string) => variables[name] ?? placeholder);
}

/** Checks and keeps the recipients of one call, in order, answering a result for each. */
export function addRecipients(
	core: SandboxCore,
	campaign: CampaignRecord,
	given: Array<{ to: string; variables?: Record<string, string> }>,
): RecipientResult[] {
	const used = variablesUsed(campaign.message);
	const closed = campaign.status === 'completed' || campaign.status === 'cancelled';
	const now = core.now().toISOString();
	const results = given.map(({ to, variables = {} }): RecipientResult => {
		const reading = toE164(to);
		if (!('number' in reading)) return notAdded(campaign, to, 'invalid', reading.problem);
		const phone = reading.number;
		const existing = core.store.recipientIndex.find(campaign.id, phone);
		if (existing) {
			return {
				...notAdded(campaign, to, 'duplicate', 'already a recipient'),
				recipientId: existing,
			};
		}
		if (closed)
			return {
				to,
				result: 'closed',
				reason: `the campaign is ${campaign.status}`,
				recipientId: null,
			};
		const missing = used.find((name) => variables[name] === undefined);
		if (missing !== undefined)
			return notAdded(campaign, to, 'invalid', `missing_variable: ${missing}`);
		if (campaign.size >= CAMPAIGN_LIMITS.recipientsPerCampaign) {
			return notAdded(campaign, to, 'refused', 'limit');
		}
		const optedOut = isOptedOut(core, campaign.workspaceId, phone);
		const recipient = core.store.insert('campaignRecipients', {
			id: recipientId(campaign.id, campaign.size),
			workspaceId: campaign.workspaceId,
			campaignId: campaign.id,
			position: campaign.size,
			to: phone,
			variables,
			state: optedOut ? 'skipped' : 'queued',
			reason: optedOut ? 'opted_out' : null,
			messageId: null,
			sentAt: null,
			updatedAt: now,
		});
		campaign.size += 1;
		count(campaign, recipient.state, recipient.reason, 1);
		return optedOut
			? { to, result: 'opted_out', reason: 'on the opt-out list', recipientId: recipient.id }
			: { to, result: 'accepted', reason: null, recipientId: recipient.id };
	});
	campaign.updatedAt = now;
	return results;
}

/** A recipient not kept: counted among the campaign's skipped by its reason. */
function notAdded(
	campaign: CampaignRecord,
	to: string,
	result: 'duplicate' | 'invalid' | 'refused',
	reason: string,
): RecipientResult {
	const key = result === 'refused' ? 'limit' : result;
	campaign.skippedBy[key] = (campaign.skippedBy[key] ?? 0) + 1;
	return { to, result, reason, recipientId: null };
}

function count(
	campaign: CampaignRecord,
	state: RecipientState,
	reason: string | null,
	by: 1 | -1,
): void {
	campaign.counts[state] += by;
	if (state === 'skipped' && reason) {
		campaign.skippedBy[reason] = (campaign.skippedBy[reason] ?? 0) + by;
	}
}

/** Moves a recipient to a state, its campaign's counts with it. */
export function moveRecipient(
	core: SandboxCore,
	campaign: CampaignRecord,
	recipient: CampaignRecipientRecord,
	state: RecipientState,
	reason: string | null = null,
): void {
	count(campaign, recipient.state, recipient.reason, -1);
	recipient.state = state;
	recipient.reason = reason;
	recipient.updatedAt = core.now().toISOString();
	count(campaign, state, reason, 1);
	campaign.updatedAt = recipient.updatedAt;
}

export function presentRecipient(recipient: CampaignRecipientRecord) {
	return {
		id: recipient.id,
		campaignId: recipient.campaignId,
		to: recipient.to,
		variables: recipient.variables,
		state: recipient.state,
		reason: recipient.reason,
		messageId: recipient.messageId,
		sentAt: recipient.sentAt,
		updatedAt: recipient.updatedAt,
	};
}

/** The campaign's recipients from a position on, in order: a page costs the page, not the campaign. */
export function* recipientsFrom(
	core: SandboxCore,
	campaign: CampaignRecord,
	position: number,
): Generator<CampaignRecipientRecord> {
	for (let at = position; at < campaign.size; at++) {
		const recipient = core.store.get('campaignRecipients', recipientId(campaign.id, at));
		if (recipient) yield recipient;
	}
}
