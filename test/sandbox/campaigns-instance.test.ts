import { campaignSandbox } from '../support/campaigns';
import { connectedInstance, raw } from '../support/sandbox';

/**
 * An instance a campaign still sends from is not deleted: its recipients would wait for ever. The refusal names
 * the campaign and says to cancel it; once it is cancelled (or completed), the instance goes.
 */

describe('deleting an instance with a campaign', () => {
	const world = campaignSandbox('Campaign sender', '2026-11-27T09:00:00Z');

	it('is refused while the campaign is unfinished, naming it; after a cancel it goes', async () => {
		const { sandbox } = world;
		const instance = await connectedInstance(sandbox, 'Second line', '+14155550199');
		const { campaign } = await world.client().campaigns.create({
			instanceId: instance.id,
			body: {
				name: 'Winter sale',
				message: { text: 'Hi' },
				recipients: [{ to: '+14155552001' }, { to: '+14155552002' }],
			},
		});
		const remove = () =>
			raw(sandbox.baseUrl, 'DELETE', `/api/v1/instances/${instance.id}`, { key: world.key() });

		// Scheduled (made, not started), then running: both refused.
		for (const start of [false, true]) {
			if (start) await world.client().campaigns.start({ campaignId: campaign.id, body: {} });
			const refused = await remove();
			expect(refused.status).toBe(409);
			const text = JSON.stringify(refused.body);
			expect(text).toContain('campaigns_unfinished');
			expect(text).toContain(campaign.id);
			expect(text).toContain('Cancel it first');
		}
		expect((await world.client().instances.get({ instanceId: instance.id })).id).toBe(instance.id);

		await world.client().campaigns.cancel({ campaignId: campaign.id });
		expect((await remove()).status).toBe(204);
	});
});
