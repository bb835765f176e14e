import type { SandboxCore } from '../core';
import { conflict } from '../errors';
import type { InstanceRecord } from '../store/store';

/** The states in which a campaign still has recipients to send to. */
const UNFINISHED = new Set(['scheduled', 'running', 'paused']);

/**
 * Refuses to delete an instance that a campaign still sends from: its recipients would wait for ever, and its
 * messages (which go with the instance) could no longer be followed. The campaign is cancelled first.
 */
export function requireNoUnfinishedCampaigns(core: SandboxCore, instance: InstanceRecord): void {
	const unfinished = [...core.store.values('campaigns')].filter(
		(campaign) => campaign.instanceId === instance.id && UNFINISHED.has(campaign.status),
	);
	if (unfinished.length === 0) return;
	const named = unfinished
		.slice(0, 3)
		.map((campaign) => `${campaign.id} "${campaign.name}" (${campaign.status})`)
		.join(', ');
	throw conflict(
		'campaigns_unfinished',
		`Instance ${instance.id} still sends ${unfinished.length === 1 ? 'a campaign' : `${unfinished.length} campaigns`}: ${named}${unfinished.length > 3 ? ', …' : ''}. Cancel ${unfinished.length === 1 ? 'it' : 'them'} first (POST /campaigns/{campaignId}/cancel), then delete the instance`,
	);
}
