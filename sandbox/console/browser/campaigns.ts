import { el, elementById, formatTime, setError } from './dom';
import { readList } from './pickers';
import { callApi, messageOf } from './session';

/**
 * The console's campaign view: the workspace's latest campaigns with their progress (recipients sent, skipped or
 * failed of all) and counts, and Pause, Resume and Cancel, through the API with the signed-in key.
 */

interface CampaignView {
	id: string;
	name: string;
	status: string;
	counts: Record<string, number> & { recipients: number; queued: number };
	nextSendAt: string | null;
}

const ACTIONS: Record<string, Array<'pause' | 'resume' | 'cancel'>> = {
	scheduled: ['cancel'],
	running: ['pause', 'cancel'],
	paused: ['resume', 'cancel'],
};

const COUNTED = ['queued', 'sent', 'delivered', 'read', 'replied', 'failed', 'skipped'];

/** Whether a campaign shown may still move (running, or due to start): only then is the view read again. */
let moving = false;

export function campaignsMoving(): boolean {
	return moving;
}

export async function renderCampaigns(): Promise<void> {
	const campaigns = await readList<CampaignView>('/api/v1/campaigns?limit=20');
	moving = campaigns.some(({ status }) => status === 'running' || status === 'scheduled');
	const body = elementById('campaigns-body');
	if (campaigns.length === 0) {
		body.replaceChildren(
			el('p', {
				className: 'muted',
				text: 'No campaigns yet (POST /api/v1/instances/{instanceId}/campaigns).',
			}),
		);
		return;
	}
	body.replaceChildren(...campaigns.map(campaignRow));
}

function campaignRow(campaign: CampaignView): HTMLElement {
	const { recipients, queued } = campaign.counts;
	// At a slow pace (1 a minute) or outside its send window, a running campaign looks stuck without its next send.
	const next =
		campaign.status === 'running' && campaign.nextSendAt
			? [`next send ${formatTime(campaign.nextSendAt)}`]
			: [];
	const counts = COUNTED.filter((state) => campaign.counts[state] > 0)
		.map((state) => `${state} ${campaign.counts[state]}`)
		.concat(next)
		.join(' · ');
	const buttons = (ACTIONS[campaign.status] ?? []).map((action) => {
		const button = el('button', {
			type: 'button',
			className: action === 'cancel' ? 'secondary small' : 'small',
			'data-campaign-action': action,
			text: action[0].toUpperCase() + action.slice(1),
		});
		button.addEventListener('click', () => void act(campaign.id, action));
		return button;
	});
	return el('div', { className: 'campaign', 'data-campaign-id': campaign.id }, [
		el('div', {}, [
			el('strong', { text: campaign.name }),
			' ',
			el('span', {
				className: 'muted',
				'data-campaign-status': campaign.status,
				text: campaign.status,
			}),
		]),
		el('progress', { max: String(Math.max(recipients, 1)), value: String(recipients - queued) }),
		el('div', {
			className: 'muted',
			text: `${recipients - queued} of ${recipients} done${counts ? `: ${counts}` : ''}`,
		}),
		el('div', { className: 'row' }, buttons),
	]);
}

async function act(campaignId: string, action: 'pause' | 'resume' | 'cancel'): Promise<void> {
	const error = elementById('campaigns-error');
	setError(error, '');
	try {
		const response = await callApi(
			'POST',
			`/api/v1/campaigns/${encodeURIComponent(campaignId)}/${action}`,
		);
		if (!response.ok) {
			const answer = (await response.json()) as { error?: { message?: string } };
			setError(error, answer.error?.message ?? `HTTP ${response.status}`);
		}
	} catch (failure) {
		setError(error, messageOf(failure));
	}
	await renderCampaigns();
}
