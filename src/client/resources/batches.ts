import { z } from '../zod';

import { named } from '../schemas';

/**
 * Batched deliveries: a short-link or automation webhook registered with `batch` receives its events (after its
 * filters) as one event of their own, at most `maxEvents` of them, delivered once the batch is full or
 * `maxWaitSeconds` after its first event, whichever comes first. Messaging webhooks gather per chat instead
 * (gathered-messages.ts). The batch event itself is described in events.ts.
 */

export const BATCH_MAX_EVENTS = { min: 1, max: 1000 };
export const BATCH_MAX_WAIT_SECONDS = { min: 1, max: 300 };
/**
 * A batch closes before its delivered body would pass this (n8n's default request limit is 16 MiB); one event
 * larger than that alone goes alone.
 */
export const BATCH_MAX_BYTES = 4 * 1024 * 1024;

export const BatchOptions = named(
	'BatchOptions',
	z.strictObject({
		maxEvents: z
			.number()
			.int()
			.min(BATCH_MAX_EVENTS.min)
			.max(BATCH_MAX_EVENTS.max)
			.describe(
				'A batch that holds this many events is delivered at once; it also goes before its body would pass 4 MiB (an event larger than that goes alone)',
			),
		maxWaitSeconds: z
			.number()
			.int()
			.min(BATCH_MAX_WAIT_SECONDS.min)
			.max(BATCH_MAX_WAIT_SECONDS.max)
			.describe('The longest a batch waits from its first event, full or not'),
	}),
);
export type BatchOptions = z.output<typeof BatchOptions>;

/** The type of a batch event on each surface that batches. */
export const BATCH_EVENT_TYPES = {
	shortLink: 'link.batch',
	automation: 'automation.batch',
} as const;
export type BatchEventType = (typeof BATCH_EVENT_TYPES)[keyof typeof BATCH_EVENT_TYPES];
