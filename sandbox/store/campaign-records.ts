/** The records of campaigns (sandbox/campaigns/): the campaign, each recipient a record of its own, the opt-outs. */

export type CampaignStatus = 'scheduled' | 'running' | 'paused' | 'completed' | 'cancelled';
export type RecipientState =
	| 'queued'
	| 'sent'
	| 'delivered'
	| 'read'
	| 'replied'
	| 'failed'
	| 'skipped';

export interface CampaignRecord {
	id: string;
	workspaceId: string;
	instanceId: string;
	name: string;
	reference: string | null;
	status: CampaignStatus;
	message:
		| { text: string }
		| {
				media: {
					url: string;
					mediaType: string;
					caption?: string;
					fileName?: string;
					mimeType?: string;
				};
		  };
	pacing: { perMinute: number; jitterSeconds: number };
	window: { from: string; to: string; timeZone: string; days?: string[] } | null;
	links: {
		track: boolean;
		utm?: { source: string; medium: string; campaign: string; term?: string; content?: string };
	} | null;
	optOut: { stopWords: string[]; confirmation: string };
	/** Recipients kept per state, and per reason those skipped or never added. */
	counts: Record<RecipientState, number>;
	skippedBy: Record<string, number>;
	/** How many recipients were kept: the next one added takes this position. */
	size: number;
	/** The position of the next recipient to look at: every one before it was sent or skipped. */
	nextPosition: number;
	startAt: string | null;
	nextSendAt: string | null;
	completedAt: string | null;
	cancelledAt: string | null;
	/** `campaign.completed`'s id, kept before it is announced: announced once, again only under it. */
	completedEventId?: string;
	createdAt: string;
	updatedAt: string;
}

/** One recipient of a campaign: `<campaignId>/<position>`, so the next to send is found without a scan. */
export interface CampaignRecipientRecord {
	id: string;
	workspaceId: string;
	campaignId: string;
	position: number;
	to: string;
	variables: Record<string, string>;
	state: RecipientState;
	reason: string | null;
	/** Set in the same store change that makes the message: a recipient with one is never sent again. */
	messageId: string | null;
	sentAt: string | null;
	updatedAt: string;
}

/** A workspace's opted-out number: `<workspaceId>/<phone>`, so a send checks it in one lookup. */
export interface OptOutRecord {
	id: string;
	workspaceId: string;
	phone: string;
	source: 'api' | 'stop_word';
	campaignId: string | null;
	instanceId: string | null;
	reason: string | null;
	since: string;
}
