import { z } from '../zod';

import { operation } from '../operation';
import { E164_PATTERN, Id, ListQuery, named, page, PhoneNumber, text, Timestamp } from '../schemas';

/**
 * Opt-outs: the workspace's contacts who asked for no more campaigns. A campaign never sends to one
 * (`skipped: opted_out`); a plain 1:1 send still goes. Filled here, or by a stop word answering a campaign.
 */

export const OPT_OUT_SOURCES = ['api', 'stop_word'] as const;

export const OptOut = named(
	'OptOut',
	z.looseObject({
		phone: z.string().describe('E.164'),
		optedOut: z.boolean(),
		since: Timestamp.nullable().describe('When it opted out'),
		source: z
			.enum(OPT_OUT_SOURCES)
			.nullable()
			.describe('`api`, or `stop_word` (answering a campaign)'),
		campaignId: Id.nullable().describe('The campaign answered with a stop word'),
		reason: z.string().nullable(),
	}),
);

/** `contact.opted_out` and `contact.opted_in`. */
export const OptOutChange = named(
	'OptOutChange',
	z.looseObject({
		phone: z.string(),
		source: z.enum(OPT_OUT_SOURCES),
		campaignId: Id.nullable(),
		instanceId: Id.nullable().describe('The instance the stop word came to; null through the API'),
		at: Timestamp,
	}),
);

// Its own schema, not PhoneNumber: a path parameter carries its description, which a named schema would not.
const byPhone = z.strictObject({
	phone: z
		.string()
		.regex(E164_PATTERN, 'must be an international number in E.164 form, like +14155550123')
		.describe('The number, in E.164 form'),
});
const item = '/opt-outs/{phone}';

export const optOutOperations = {
	add: operation({
		method: 'POST',
		path: '/opt-outs',
		summary: 'Opt a phone number out of every campaign',
		description:
			'One already opted out is answered as it is. Emits `contact.opted_out` when it is new. Queued recipients of running campaigns are skipped when their send is due.',
		scope: 'messaging:write',
		body: z.strictObject({ phone: PhoneNumber, reason: text({ max: 500 }).optional() }),
		response: OptOut,
		status: 200,
	}),
	remove: operation({
		method: 'DELETE',
		path: item,
		summary: 'Opt a phone number back in',
		description:
			'Answers it with `optedOut: false`; emits `contact.opted_in` when it was opted out. Recipients already skipped stay skipped.',
		scope: 'messaging:write',
		params: byPhone,
		response: OptOut,
		status: 200,
	}),
	get: operation({
		method: 'GET',
		path: item,
		summary: 'Check whether a phone number is opted out',
		scope: 'messaging:read',
		params: byPhone,
		response: OptOut,
		status: 200,
	}),
	list: operation({
		method: 'GET',
		path: '/opt-outs',
		summary: "List the workspace's opted-out numbers, latest first",
		scope: 'messaging:read',
		query: ListQuery,
		response: page(OptOut),
		status: 200,
		paginated: true,
	}),
};
