import { sendDueCampaigns } from '../../sandbox/campaigns/sender';
import type { Sandbox } from '../../sandbox/server';
import { clientsFor, connectedInstance, startTestSandbox } from './sandbox';

/**
 * A sandbox for campaign tests, on the test's clock, with one connected instance. The sender's own timer is left
 * far off: `advance` moves the clock and runs the sender's check itself (what its timer runs), so nothing waits.
 * `sandbox` and `instanceId` are set before the tests run.
 */
export function campaignSandbox(instanceName: string, startsAt: string) {
	const world = {
		clock: Date.parse(startsAt),
		sandbox: undefined as unknown as Sandbox,
		instanceId: '',
		client: () => clientsFor(world.sandbox.baseUrl, world.sandbox.keys as never).workspace,
		key: () => (world.sandbox.keys as { workspace: string }).workspace,
		advance(ms: number) {
			world.clock += ms;
			sendDueCampaigns(world.sandbox.core);
		},
	};
	beforeAll(async () => {
		world.sandbox = await startTestSandbox({
			now: () => world.clock,
			rateLimit: false,
			scheduled: { tickMs: 3_600_000 },
		});
		world.instanceId = (await connectedInstance(world.sandbox, instanceName, '+14155550100')).id;
	});
	afterAll(() => world.sandbox.close());
	return world;
}
