import type { CampaignRecipientRecord } from './campaign-records';

/**
 * Each campaign's recipients by number, kept beside the store (which keeps it up to date as recipients are
 * inserted, removed and put back), so that adding 1,000 to a campaign of 100,000 asks "is this number in it?"
 * 1,000 times, not walks it.
 */
export class RecipientIndex {
	private readonly byCampaign = new Map<string, Map<string, string>>();

	put(recipient: CampaignRecipientRecord): void {
		let numbers = this.byCampaign.get(recipient.campaignId);
		if (!numbers) this.byCampaign.set(recipient.campaignId, (numbers = new Map()));
		numbers.set(recipient.to, recipient.id);
	}

	delete(recipient: CampaignRecipientRecord | undefined): void {
		if (!recipient) return;
		const numbers = this.byCampaign.get(recipient.campaignId);
		if (numbers?.get(recipient.to) === recipient.id) numbers.delete(recipient.to);
		if (numbers?.size === 0) this.byCampaign.delete(recipient.campaignId);
	}

	/** The id of the campaign's recipient with this number, if it has one. */
	find(campaignId: string, to: string): string | undefined {
		return this.byCampaign.get(campaignId)?.get(to);
	}
}
