import type { WorkspaceClient } from '../../src/client';

/**
 * The campaign and opt-out operations, as contract.test.ts drives every operation (kept here: that file is at
 * its line limit). Nothing is sent: the campaign is cancelled before the sandbox's next send.
 */
export async function driveCampaigns(workspace: WorkspaceClient, instanceId: string) {
	const body = {
		name: 'Spring sale',
		reference: 'contract-spring',
		message: { text: 'Hi {{name}}, our sale starts today' },
		pacing: { perMinute: 30, jitterSeconds: 2 },
		window: { from: '09:00', to: '18:00', timeZone: 'Europe/Berlin', days: ['mon' as const] },
		links: { track: true, utm: { source: 'whatsapp', medium: 'chat', campaign: 'spring' } },
		optOut: { stopWords: ['STOP'], confirmation: 'Done: no more messages' },
		recipients: [{ to: '+14155550131', variables: { name: 'Ann' } }, { to: 'nope' }],
	};
	const { campaign } = await workspace.campaigns.create({ instanceId, body });
	// Created again by its reference: the campaign as it is, 200 (the contract's foundStatus).
	await workspace.campaigns.create({ instanceId, body });
	const campaignId = campaign.id;
	await workspace.campaigns.addRecipients({
		campaignId,
		body: { recipients: [{ to: '+14155550132', variables: { name: 'Bo' } }] },
	});
	await workspace.campaigns.get({ campaignId });
	await workspace.campaigns.list({ query: { status: 'scheduled', instanceId, limit: 5 } });
	await workspace.campaigns.listRecipients({ campaignId, query: { state: 'queued', limit: 5 } });
	await workspace.campaigns.start({ campaignId, body: { startAt: '2100-01-04T08:00:00Z' } });
	await workspace.campaigns.pause({ campaignId });
	await workspace.campaigns.resume({ campaignId });
	await workspace.campaigns.cancel({ campaignId });

	await workspace.optOuts.add({ body: { phone: '+14155550133', reason: 'asked by phone' } });
	await workspace.optOuts.get({ phone: '+14155550133' });
	await workspace.optOuts.list({ query: { limit: 5 } });
	await workspace.optOuts.remove({ phone: '+14155550133' });
}
