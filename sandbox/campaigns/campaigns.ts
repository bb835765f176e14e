/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import { isDeepStrictEqual } from 'node:util';

import {
	CAMPAIGN_LIMITS,
	DEFAULT_OPT_OUT_CONFIRMATION,
	DEFAULT_STOP_WORDS,
} from '../../src/client/resources/campaigns';
import type { SandboxCore } from '../core';
import { conflict, HttpError, notFound } from '../errors';
import { newId, type CampaignRecord } from '../store/store';
import { moveRecipient, recipientsFrom } from './recipients';
import { firstOpenAt } from './send-window';

/**
 * A campaign's life: made `scheduled`, started (now or at a time), paused and resumed, cancelled, completed by
 * its sender (sender.ts) once every recipient was sent or skipped. A state change takes effect before the next
 * send: the sender reads the state at each send.
 */

export type CampaignInput = Pick<CampaignRecord, 'name' | 'message'> & {
	reference?: string;
	pacing?: { perMinute?: number; jitterSeconds?: number };
	window?: CampaignRecord['window'];
	links?: CampaignRecord['links'];
	optOut?: { stopWords?: string[]; confirmation?: string };
};

export function requireCampaign(
	core: SandboxCore,
	workspaceId: string,
	campaignId: string,
): CampaignRecord {
	const campaign = core.store.find('campaigns', workspaceId, campaignId);
	if (!campaign) throw notFound('Campaign', campaignId);
	return campaign;
}

/**
 * The workspace's campaign of this reference, if any. One of another instance or with another message is 409
 * naming the field: answering it would send its old message to the new recipients.
 */
export function campaignOfReference(
	core: SandboxCore,
	workspaceId: string,
	instanceId: string,
	input: Pick<CampaignInput, 'reference' | 'message'>,
): CampaignRecord | undefined {
	const { reference } = input;
	if (reference === undefined) return undefined;
	for (const campaign of core.store.values('campaigns')) {
		if (campaign.workspaceId !== workspaceId || campaign.reference !== reference) continue;
		const otherInstance = campaign.instanceId !== instanceId;
		if (!otherInstance && sameMessage(campaign.message, input.message)) return campaign;
		const other = otherInstance ? `of instance ${campaign.instanceId}` : 'with another message';
		throw new HttpError(
			409,
			'reference_in_use',
			`This reference is campaign ${campaign.id}'s, ${other}: give the campaign a new name (or reference) to send this message`,
			[{ field: 'body.reference', message: `in use by campaign ${campaign.id} ${other}` }],
		);
	}
	return undefined;
}

/** The same message as stored: compared as JSON, so a field left out and one kept as undefined are the same. */
function sameMessage(stored: CampaignRecord['message'], given: CampaignRecord['message']): boolean {
	return isDeepStrictEqual(JSON.parse(JSON.stringify(stored)), JSON.parse(JSON.stringify(given)));
}

export function createCampaign(
	core: SandboxCore,
	workspaceId: string,
	instanceId: string,
	input: CampaignInput,
): CampaignRecord {
	const now = core.now().toISOString();
	return core.store.insert('campaigns', {
		id: newId('cmp'),
		workspaceId,
		instanceId,
		name: input.name,
		reference: input.reference ?? null,
		status: 'scheduled',
		message: input.message,
		pacing: {
			perMinute: input.pacing?.perMinute ?? CAMPAIGN_LIMITS.perMinute.default,
			jitterSeconds: input.pacing?.jitterSeconds ?? 0,
		},
		window: input.window ?? null,
		links: input.links ?? null,
		optOut: {
			stopWords: input.optOut?.stopWords ?? DEFAULT_STOP_WORDS,
			confirmation: input.optOut?.confirmation ?? DEFAULT_OPT_OUT_CONFIRMATION,
		},
		counts: { queued: 0, sent: 0, delivered: 0, read: 0, replied: 0, failed: 0, skipped: 0 },
		skippedBy: {},
		size: 0,
		nextPosition: 0,
		startAt: null,
		nextSendAt: null,
		completedAt: null,
		cancelledAt: null,
		createdAt: now,
		updatedAt: now,
	});
}

export function presentCampaign(campaign: CampaignRecord) {
	return {
		id: campaign.id,
		instanceId: campaign.instanceId,
		name: campaign.name,
		reference: campaign.reference,
		status: campaign.status,
		message: campaign.message,
		pacing: campaign.pacing,
		window: campaign.window,
		links: campaign.links,
		optOut: campaign.optOut,
		counts: { recipients: campaign.size, ...campaign.counts, skippedBy: campaign.skippedBy },
		startAt: campaign.startAt,
		nextSendAt: campaign.status === 'running' ? campaign.nextSendAt : null,
		completedAt: campaign.completedAt,
		cancelledAt: campaign.cancelledAt,
		createdAt: campaign.createdAt,
		updatedAt: campaign.updatedAt,
	};
}

/** From `scheduled` to `running` at startAt (or now); a campaign started already stays as it is. */
export function startCampaign(core: SandboxCore, campaign: CampaignRecord, startAt?: string): void {
	if (campaign.status !== 'scheduled') return;
	const now = core.now().getTime();
	const at = Math.max(now, startAt === undefined ? now : Date.parse(startAt));
	campaign.status = 'running';
	campaign.startAt = new Date(at).toISOString();
	campaign.nextSendAt = new Date(firstOpenAt(at, campaign.window)).toISOString();
	campaign.updatedAt = new Date(now).toISOString();
}

export function pauseCampaign(core: SandboxCore, campaign: CampaignRecord): void {
	if (campaign.status === 'paused') return;
	if (campaign.status !== 'running') {
		throw conflict(
			'campaign_not_running',
			`Campaign ${campaign.id} is ${campaign.status}, not running`,
		);
	}
	campaign.status = 'paused';
	campaign.updatedAt = core.now().toISOString();
}

/** Running again; its next send is due when it was (its pacing kept), or now if that has passed. */
export function resumeCampaign(core: SandboxCore, campaign: CampaignRecord): void {
	if (campaign.status === 'running') return;
	if (campaign.status !== 'paused') {
		throw conflict(
			'campaign_not_paused',
			`Campaign ${campaign.id} is ${campaign.status}, not paused`,
		);
	}
	const now = core.now().getTime();
	const due = Math.max(now, Date.parse(campaign.nextSendAt ?? '') || now);
	campaign.status = 'running';
	campaign.nextSendAt = new Date(firstOpenAt(due, campaign.window)).toISOString();
	campaign.updatedAt = new Date(now).toISOString();
}

/** Cancelled: every queued recipient is skipped (`cancelled`); nothing more is sent. */
export function cancelCampaign(core: SandboxCore, campaign: CampaignRecord): void {
	if (campaign.status === 'cancelled') return;
	if (campaign.status === 'completed') {
		throw conflict(
			'campaign_completed',
			`Campaign ${campaign.id} is completed (at ${campaign.completedAt}): there is nothing left to cancel`,
		);
	}
	for (const recipient of recipientsFrom(core, campaign, campaign.nextPosition)) {
		if (recipient.state === 'queued')
			moveRecipient(core, campaign, recipient, 'skipped', 'cancelled');
	}
	const now = core.now().toISOString();
	campaign.status = 'cancelled';
	campaign.cancelledAt = now;
	campaign.nextPosition = campaign.size;
	campaign.updatedAt = now;
}
