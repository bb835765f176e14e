import { z } from '../zod';

import { named } from '../schemas';

/**
 * Hand-over to a person (SERVICE.md, "people", 2026-11-28): a chat handed over is one a person handles, so that
 * an automation (an AI agent) stays silent there. Handed over through the API or by the business answering from
 * its own phone; given back through the API or by itself after the instance's quiet period.
 */

/** The instance's quiet period, in minutes: how long a chat stays handed over with no message from the business's own phone. */
export const HAND_OVER_QUIET_MINUTES = { min: 1, max: 10_080, default: 30 };

export const HandOverBy = z
	.enum(['api', 'business_phone'])
	.describe(
		'What handed the chat over: `api` (Hand Over), or `business_phone` (the business answered from its own phone rather than through the API)',
	);

const HandBackReason = z
	.enum(['api', 'quiet_period'])
	.describe(
		"`api` (Give Back), or `quiet_period` (no message from the business's own phone for the quiet period)",
	);

export const HandOver = named(
	'HandOver',
	z.looseObject({
		instanceId: z.string(),
		chatId: z.string(),
		handedOver: z
			.boolean()
			.describe('A person handles the chat: its message events carry `handedOver: true`'),
		since: z
			.string()
			.describe('When it was handed over (ISO-8601); null when it is not')
			.nullable(),
		by: HandOverBy.nullable().describe(
			'What handed it over (`api`, `business_phone`); null when it is not',
		),
		givesBackAt: z
			.string()
			.describe(
				"When it is given back by itself: the instance's quiet period after the hand-over or after the last message from the business's own phone, whichever is later (ISO-8601); null when it is not handed over",
			)
			.nullable(),
		reason: HandBackReason.optional().describe('On `chat.handed_back` only: why it was given back'),
	}),
);
export type HandOver = z.output<typeof HandOver>;

export const HAND_OVER_RULE =
	'Handing over a chat that is handed over, or giving back one that is not, changes nothing and emits no event: it answers the chat as it stands.';
