import { z } from '../zod';

import { operation } from '../operation';
import {
	DateTimeInput,
	FileName,
	Id,
	ListQuery,
	MimeType,
	named,
	page,
	pathParams,
	Timestamp,
	text,
	Url,
} from '../schemas';
import { MAX_LENGTH } from './message-sends';

/**
 * Campaigns: one message from one instance to up to 100,000 recipients, each sent once, paced at the service
 * (SERVICE.md, "campaigns", 2026-11-28). Made `scheduled`, filled in calls of up to 1,000 recipients, then started.
 */

export const CAMPAIGN_LIMITS = {
	recipientsPerCall: 1_000,
	recipientsPerCampaign: 100_000,
	perMinute: { min: 1, max: 600, default: 20 },
	jitterSeconds: { max: 600 },
} as const;

/** The words that opt a contact out when they answer a campaign with one alone (ignoring case). */
export const DEFAULT_STOP_WORDS = ['STOP', 'UNSUBSCRIBE', 'STOPALL', 'CANCEL', 'END', 'QUIT'];
export const DEFAULT_OPT_OUT_CONFIRMATION =
	'You are unsubscribed: you will get no more of these messages.';

export const CAMPAIGN_STATES = [
	'scheduled',
	'running',
	'paused',
	'completed',
	'cancelled',
] as const;
export const RECIPIENT_STATES = [
	'queued',
	'sent',
	'delivered',
	'read',
	'replied',
	'failed',
	'skipped',
] as const;
/** Why a recipient was not sent to (a skipped recipient kept), or not added (the rest). */
export const SKIP_REASONS = ['duplicate', 'invalid', 'opted_out', 'cancelled', 'limit'] as const;

const PLACEHOLDER_RULE =
	"`{{name}}` placeholders take each recipient's `variables.name`; a recipient without a variable the message uses is not added (`invalid`, reason `missing_variable: name`)";

const CampaignMessage = z.union([
	z.strictObject({ text: text({ min: 1, max: MAX_LENGTH.text }).describe(PLACEHOLDER_RULE) }),
	z.strictObject({
		media: z.strictObject({
			url: Url,
			mediaType: z.enum(['image', 'video', 'audio', 'document']),
			caption: text({ max: MAX_LENGTH.caption }).optional().describe(PLACEHOLDER_RULE),
			fileName: FileName.optional(),
			mimeType: MimeType.optional(),
		}),
	}),
]);

const Pacing = z.strictObject({
	perMinute: z
		.number()
		.int()
		.min(CAMPAIGN_LIMITS.perMinute.min)
		.max(CAMPAIGN_LIMITS.perMinute.max)
		.optional()
		.describe(
			'At most this many sends a minute (1–600, default 20): one every 60/perMinute seconds',
		),
	jitterSeconds: z
		.number()
		.min(0)
		.max(CAMPAIGN_LIMITS.jitterSeconds.max)
		.optional()
		.describe('A random pause of 0 to this many seconds added to each gap (default 0)'),
});

const ClockTime = z
	.string()
	.regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'must be HH:MM, 00:00 to 23:59');
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

const SendWindow = z
	.strictObject({
		from: ClockTime.describe('Opens at this local time'),
		to: ClockTime.describe(
			'Closes at this local time; before `from`: the window runs past midnight',
		),
		timeZone: text({ min: 1, max: 100 })
			.refine(isTimeZone, 'must be an IANA time zone, like Europe/Berlin')
			.describe('IANA time zone of `from`, `to` and `days`'),
		days: z
			.array(z.enum(WEEKDAYS))
			.min(1)
			.max(7)
			.optional()
			.describe('Days it opens (all when absent)'),
	})
	.refine((window) => window.from !== window.to, {
		message: 'must differ from `from`',
		path: ['to'],
	})
	.describe(
		'Sends only inside this daily window; a send due outside it waits for the next opening',
	);

function isTimeZone(value: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: value });
		return true;
	} catch {
		return false;
	}
}

const Utm = z.strictObject({
	source: text({ min: 1, max: 100 }),
	medium: text({ min: 1, max: 100 }),
	campaign: text({ min: 1, max: 100 }),
	term: text({ min: 1, max: 100 }).optional(),
	content: text({ min: 1, max: 100 }).optional(),
});

const Links = z.strictObject({
	track: z.boolean().describe('Each URL in the text or caption becomes a short link per recipient'),
	utm: Utm.optional().describe('`utm_*` parameters added to each URL before it is shortened'),
});

const OptOutSettings = z.strictObject({
	stopWords: z
		.array(text({ min: 1, max: 50 }))
		.min(1)
		.max(50)
		.optional()
		.describe(
			`An answer that is one of these, trimmed, ignoring case, opts the contact out (default ${DEFAULT_STOP_WORDS.join(', ')})`,
		),
	confirmation: text({ min: 1, max: MAX_LENGTH.text })
		.optional()
		.describe('Sent back to a contact who opted out by a stop word (a default text when absent)'),
});

export const CampaignRecipientInput = z.strictObject({
	to: text({ min: 1, max: 40 }).describe(
		'A phone number in E.164 form; another form is reported per recipient (`invalid`), not refused. Campaigns go to numbers only: a chat id, contact id or `@username` is `invalid` too (send to such a person one by one)',
	),
	variables: z.record(text({ min: 1, max: 50 }), text({ max: 1000 })).optional(),
});

const RecipientList = z.array(CampaignRecipientInput).max(CAMPAIGN_LIMITS.recipientsPerCall);

export const CampaignCounts = z.looseObject({
	recipients: z.number().int().describe('Recipients kept: the sum of the states below'),
	queued: z.number().int(),
	sent: z.number().int().describe('Sent, with no receipt yet'),
	delivered: z.number().int(),
	read: z.number().int(),
	replied: z.number().int(),
	failed: z.number().int(),
	skipped: z.number().int().describe('Kept and not sent to (`opted_out`, `cancelled`)'),
	skippedBy: z
		.record(z.string(), z.number().int())
		.describe(
			'Per reason: the kept ones (`opted_out`, `cancelled`) and those never added (`duplicate`, `invalid`, `limit`)',
		),
});

export const Campaign = named(
	'Campaign',
	z.looseObject({
		id: Id.describe('`cmp_…`'),
		instanceId: Id,
		name: z.string(),
		reference: z.string().nullable(),
		status: z.enum(CAMPAIGN_STATES),
		message: z.record(z.string(), z.unknown()),
		pacing: z.looseObject({ perMinute: z.number(), jitterSeconds: z.number() }),
		window: z.record(z.string(), z.unknown()).nullable(),
		links: z.record(z.string(), z.unknown()).nullable(),
		optOut: z.looseObject({ stopWords: z.array(z.string()), confirmation: z.string() }),
		counts: CampaignCounts,
		startAt: Timestamp.nullable().describe('When it starts (or started) sending'),
		nextSendAt: Timestamp.nullable().describe('When the next send is due, while running'),
		completedAt: Timestamp.nullable(),
		cancelledAt: Timestamp.nullable(),
		createdAt: Timestamp,
		updatedAt: Timestamp,
	}),
);

export const CampaignRecipient = named(
	'CampaignRecipient',
	z.looseObject({
		id: Id.describe('`cr_…`'),
		campaignId: Id,
		to: z.string().describe('E.164'),
		variables: z.record(z.string(), z.string()),
		state: z.enum(RECIPIENT_STATES),
		reason: z.string().nullable().describe('Why it failed or was skipped'),
		messageId: z.string().nullable().describe('The message sent to it'),
		sentAt: Timestamp.nullable(),
		updatedAt: Timestamp,
	}),
);

export const RecipientResult = z.looseObject({
	to: z.string().describe('As given'),
	result: z.enum(['accepted', 'duplicate', 'invalid', 'opted_out', 'closed', 'refused']),
	reason: z.string().nullable(),
	recipientId: z.string().nullable().describe('The recipient kept (accepted, opted_out)'),
});

const RESULT_RULES =
	'Each recipient of the call has a result, in order: `accepted`; `duplicate` (already in the campaign, or earlier in the call); `invalid` (not an E.164 number, or a variable the message uses missing; see `reason`); `opted_out` (on the opt-out list: kept, skipped, never sent); `closed` (the campaign is completed or cancelled); `refused` (reason `limit`: past 100,000 recipients). None of these fails the call.';

export const CampaignRecipientsAdded = named(
	'CampaignRecipientsAdded',
	z.looseObject({ campaign: Campaign, recipients: z.array(RecipientResult) }),
);

export const CampaignCreated = named(
	'CampaignCreated',
	CampaignRecipientsAdded.extend({
		created: z
			.boolean()
			.describe(
				'false when the reference found an existing campaign (then no recipients are added)',
			),
	}),
);

export const CreateCampaign = named(
	'CreateCampaign',
	z.strictObject({
		name: text({ min: 1, max: 200 }),
		reference: text({ min: 1, max: 200 })
			.optional()
			.describe(
				'Unique in the workspace: a create with a reference in use answers that campaign (200, `created: false`) and adds nothing; with another instance or another message it is 409 `reference_in_use` (the new recipients would get the old message)',
			),
		message: CampaignMessage,
		pacing: Pacing.optional(),
		window: SendWindow.optional(),
		links: Links.optional(),
		optOut: OptOutSettings.optional(),
		recipients: RecipientList.optional(),
	}),
);

export const CampaignListQuery = ListQuery.extend({
	status: z
		.enum(CAMPAIGN_STATES)
		.optional()
		.describe('Only the campaigns in this state; all when absent'),
	instanceId: Id.optional().describe("Only this instance's campaigns; all when absent"),
});

const byId = pathParams('campaignId');
const item = '/campaigns/{campaignId}';

const stateChange = (path: string, summary: string, description: string) =>
	operation({
		method: 'POST',
		path: `${item}/${path}`,
		summary,
		description,
		scope: 'messaging:write',
		params: byId,
		response: Campaign,
		status: 200,
	});

export const campaignOperations = {
	create: operation({
		method: 'POST',
		path: '/instances/{instanceId}/campaigns',
		summary: 'Create a campaign, with its first recipients',
		description: `Made \`scheduled\`: nothing is sent until it is started, so recipients may be added in more calls first. 201 with \`created: true\`; with a \`reference\` in use, 200 with that campaign and \`created: false\`, or 409 \`reference_in_use\` when its message or instance differs. ${RESULT_RULES}`,
		scope: 'messaging:write',
		params: pathParams('instanceId'),
		body: CreateCampaign,
		response: CampaignCreated,
		status: 201,
		foundStatus: 200,
		creates: true,
	}),
	addRecipients: operation({
		method: 'POST',
		path: `${item}/recipients`,
		summary: 'Add up to 1,000 recipients to a campaign',
		description: `Any state: to a completed or cancelled campaign new recipients are \`closed\`. ${RESULT_RULES}`,
		scope: 'messaging:write',
		params: byId,
		body: z.strictObject({ recipients: RecipientList.min(1) }),
		response: CampaignRecipientsAdded,
		status: 200,
	}),
	start: operation({
		method: 'POST',
		path: `${item}/start`,
		summary: 'Start a scheduled campaign, now or at startAt',
		description:
			'A campaign already started (running, paused, completed, cancelled) is answered as it is: starting again is safe.',
		scope: 'messaging:write',
		params: byId,
		body: z.strictObject({
			startAt: DateTimeInput.optional().describe(
				'When the first send is due (now when absent or past)',
			),
		}),
		response: Campaign,
		status: 200,
	}),
	pause: stateChange(
		'pause',
		'Pause a running campaign before its next send',
		'A paused one is answered as it is; a scheduled, completed or cancelled one is 409 `campaign_not_running` naming its state.',
	),
	resume: stateChange(
		'resume',
		'Resume a paused campaign',
		'Its next send is due a pacing gap from now. A running one is answered as it is; another state is 409 `campaign_not_paused`.',
	),
	cancel: stateChange(
		'cancel',
		'Cancel a campaign before its next send',
		'Its queued recipients become `skipped` (`cancelled`). A cancelled one is answered as it is; a completed one is 409 `campaign_completed`.',
	),
	get: operation({
		method: 'GET',
		path: item,
		summary: 'Get a campaign and its counts',
		scope: 'messaging:read',
		params: byId,
		response: Campaign,
		status: 200,
	}),
	list: operation({
		method: 'GET',
		path: '/campaigns',
		summary: "List the workspace's campaigns, newest first",
		scope: 'messaging:read',
		query: CampaignListQuery,
		response: page(Campaign),
		status: 200,
		paginated: true,
	}),
	listRecipients: operation({
		method: 'GET',
		path: `${item}/recipients`,
		summary: "List a campaign's recipients in the order they were added",
		scope: 'messaging:read',
		params: byId,
		query: ListQuery.extend({
			state: z
				.enum(RECIPIENT_STATES)
				.optional()
				.describe(
					'Only the recipients in this state (`failed`, `skipped`: with their reason); all when absent',
				),
		}),
		response: page(CampaignRecipient),
		status: 200,
		paginated: true,
	}),
};

/** `campaign.recipient.failed`: its message failed (or could not be sent); `instanceId` for the instance filter. */
export const CampaignRecipientFailed = named(
	'CampaignRecipientFailed',
	z.looseObject({
		campaignId: Id,
		instanceId: Id,
		recipient: CampaignRecipient,
		reason: z.string(),
	}),
);
