/**
 * The campaign job (campaignNode): "Manual Trigger → Items → Multichannel (Campaign → Create)" on N items, each a
 * recipient with a name, run by n8n-core from the TypeScript sources: the whole list handed over to the service
 * in calls of 1,000 from one execution. Its baseline is the per-item send loop (bulkNode, jobs/sends.ts).
 */
import { runNode } from '../../dev/harness';
import { benchChat } from '../lib';
import type { Target } from './sends';

const NODE_TYPE = 'n8n-nodes-multichannel.multichannel';
const NODE_NAME = 'Multichannel';

export interface CampaignJob extends Target {
	items: number;
	perMinute: number;
	/** The campaign's name: each run makes a campaign of its own. */
	tag: string;
	warmup: number;
}

/**
 * Creates the campaign `name` of `items` recipients, started now or, for a warm-up, a day ahead (so that it sends
 * nothing beside the measured one); how many recipients the service accepted.
 */
export async function campaignNode(
	job: CampaignJob,
	items: number,
	name: string,
	startLater = false,
): Promise<number> {
	const result = await runNode(
		{
			type: NODE_TYPE,
			name: NODE_NAME,
			parameters: {
				resource: 'campaign',
				operation: 'create',
				instanceId: { __rl: true, mode: 'id', value: job.instanceId },
				name,
				to: '={{ $json.phone }}',
				text: 'Hi {{name}}, our winter sale starts today',
				perMinute: job.perMinute,
				options: startLater ? { startAt: new Date(Date.now() + 86_400_000).toISOString() } : {},
			},
		},
		{
			credentials: { multichannelApi: { baseUrl: job.baseUrl, apiKey: job.apiKey } },
			items: Array.from({ length: items }, (_, index) => ({
				phone: benchChat(index),
				name: `Person ${index}`,
			})),
		},
	);
	if (result.error) throw new Error(`The workflow failed: ${result.error.message}`);
	const [campaign] = result.json(NODE_NAME) as Array<{ added: { accepted: number } }>;
	return campaign.added.accepted;
}
