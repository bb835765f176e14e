import { z } from './zod';

import { ANSWER_EVENT, AnswerDelivery } from './resources/answers';
import { AutomationEvent, AutomationEventName } from './resources/automation-events';
import { BATCH_EVENT_TYPES, type BatchEventType } from './resources/batches';
import { Call } from './resources/calls';
import { Campaign, CampaignRecipientFailed } from './resources/campaigns';
import { Contact } from './resources/contacts';
import {
	InstanceRestriction,
	MessageDeleted,
	MessageEdited,
	MessageReaction,
	PresenceUpdate,
} from './resources/contact-acts';
import { Group } from './resources/groups';
import { HandOver } from './resources/hand-overs';
import { GatheredMessages } from './resources/gathered-messages';
import { Connection, Instance } from './resources/instances';
import { ChatLabelsChanged } from './resources/labels';
import { Click, Link } from './resources/links';
import { Message } from './resources/messages';
import { OptOutChange } from './resources/opt-outs';
import { PollVote } from './resources/polls';
import { named, Timestamp } from './schemas';

export const MESSAGING_EVENTS = [
	'message.received',
	'message.sent',
	'message.delivered',
	'message.read',
	'message.failed',
	'message.edited',
	'message.deleted',
	'message.reaction',
	'presence.updated',
	'instance.restricted',
	'instance.connected',
	'instance.disconnected',
	'instance.qr_updated',
	'group.created',
	'group.participants_updated',
	'contact.created',
	'contact.updated',
	'poll.voted',
	'call.received',
	'call.missed',
	'call.rejected',
	'message.scheduled_sent',
	'chat.labels_changed',
	'campaign.completed',
	'campaign.recipient.failed',
	'contact.opted_out',
	'contact.opted_in',
	'chat.handed_over',
	'chat.handed_back',
] as const;
export const LINK_EVENTS = [
	'link.created',
	'link.updated',
	'link.deleted',
	'link.clicked',
] as const;

export type MessagingEventType = (typeof MESSAGING_EVENTS)[number];

/**
 * Events a webhook gets only when it names them: `*` leaves them out. Presence comes many times a minute per
 * chat, so a receiver subscribed to everything before it existed does not start getting it.
 */
export const NAMED_ONLY_EVENTS: readonly string[] = ['presence.updated'];

/** Whether a webhook's (or a trigger's) events take an event of this type. */
export function subscribesTo(events: readonly string[], type: string): boolean {
	return (
		events.includes(type) ||
		(events.includes('*') && !NAMED_ONLY_EVENTS.includes(type)) ||
		(type.startsWith('automation.') && events.includes('automation.*'))
	);
}
export type LinkEventType = (typeof LINK_EVENTS)[number];
export type EventType = MessagingEventType | LinkEventType | `automation.${string}`;

export const MessagingEventName = z.enum(MESSAGING_EVENTS);
export const LinkEventName = z.enum(LINK_EVENTS);
/** `automation.<name>` for one event, `automation.*` for all of them. */
export const AutomationWebhookEventName = z
	.string()
	.regex(
		/^automation\.([a-z][a-z0-9_.-]{0,99}|\*)$/,
		'must be automation.<event name> or automation.*',
	);

/** The envelope every webhook delivery carries, on all surfaces. Parsed leniently on receipt. */
export const EventEnvelope = named(
	'Event',
	z.looseObject({
		id: z.string().describe('`evt_…`; the same across redeliveries of one event'),
		type: z.string(),
		createdAt: Timestamp,
		workspaceId: z.string().optional(),
		batch: z
			.literal(true)
			.optional()
			.describe(
				'Present only on a batch event (`link.batch`, `automation.batch`): its `data` is an `EventBatch`',
			),
		data: z.record(z.string(), z.unknown()),
	}),
);
export type EventEnvelope = z.output<typeof EventEnvelope>;

/**
 * The `data` of a batch event: the events of a webhook registered with `batch`, each exactly as it would be
 * delivered alone (its own id, type and data), in the order they happened. The batch has an id of its own, which
 * the receiver claims once for all of them.
 */
export const EventBatch = named(
	'EventBatch',
	z.looseObject({
		count: z.number().int().describe('How many events: the length of `events`'),
		// Each an `Event`; kept as plain objects here so that the document names the envelope in one place.
		events: z
			.array(z.record(z.string(), z.unknown()))
			.describe(
				'Each event exactly as it would be delivered alone (an `Event`: its own id, type, createdAt and data), in the order they happened',
			),
		firstAt: Timestamp.describe('When the first event happened'),
		lastAt: Timestamp.describe('When the last event happened'),
	}),
);
export type EventBatch = z.output<typeof EventBatch>;

/**
 * Whether a delivered event is a batch. `batch: true` decides, not the type: an automation event may be
 * published under the name `batch` too.
 */
export function isBatch(event: EventEnvelope): event is EventEnvelope & { data: EventBatch } {
	return event.batch === true && Array.isArray(event.data.events);
}

/** The events of a batch that are events (an envelope each); anything else in it is left out. */
export function eventsOfBatch(batch: EventBatch): EventEnvelope[] {
	return batch.events.flatMap((entry) => {
		const parsed = EventEnvelope.safeParse(entry);
		return parsed.success ? [parsed.data] : [];
	});
}

/** What each event type carries in `data`. */
export const eventData = {
	// A webhook that gathers bursts receives a person's messages as one event (resources/gathered-messages.ts).
	'message.received': z.union([Message, GatheredMessages]),
	'message.sent': Message,
	'message.delivered': Message,
	'message.read': Message,
	'message.failed': Message,
	// By the contact on their phone, or by the business through the API (`by`).
	'message.edited': MessageEdited,
	'message.deleted': MessageDeleted,
	'message.reaction': MessageReaction,
	'presence.updated': PresenceUpdate,
	'instance.restricted': InstanceRestriction,
	'instance.connected': Instance,
	'instance.disconnected': Instance,
	'instance.qr_updated': Connection,
	'group.created': Group,
	'group.participants_updated': Group,
	'contact.created': Contact,
	'contact.updated': Contact,
	'poll.voted': PollVote,
	'call.received': Call,
	'call.missed': Call,
	'call.rejected': Call,
	// A scheduled send that went at its time (after its `message.sent`); `late: true` when sent on start.
	'message.scheduled_sent': Message,
	'chat.labels_changed': ChatLabelsChanged,
	// Campaign progress is read (GET /campaigns/{id}), not pushed per message: these two are the exceptions.
	'campaign.completed': Campaign,
	'campaign.recipient.failed': CampaignRecipientFailed,
	'contact.opted_out': OptOutChange,
	'contact.opted_in': OptOutChange,
	// Hand-over to a person (resources/hand-overs.ts): `by` says what handed it over, `reason` why it came back.
	'chat.handed_over': HandOver,
	'chat.handed_back': HandOver,
	'link.created': Link,
	'link.updated': Link,
	'link.deleted': Link,
	'link.clicked': named('LinkClick', z.looseObject({ link: Link, click: Click })),
	'automation.*': AutomationEvent,
	// Not subscriptions: what a webhook registered with `batch` receives instead of its events one by one.
	[BATCH_EVENT_TYPES.shortLink]: EventBatch,
	[BATCH_EVENT_TYPES.automation]: EventBatch,
	// Not a webhook subscription: delivered once to the URL of an answer registration (resources/answers.ts).
	[ANSWER_EVENT]: AnswerDelivery,
} satisfies Record<
	MessagingEventType | LinkEventType | 'automation.*' | BatchEventType | typeof ANSWER_EVENT,
	z.ZodType
>;

/**
 * What an event is about, where a webhook's `filters` look: the instance of a messaging event, the link of a
 * link event. The service matches filters with it before it delivers, the trigger again on receipt.
 */
export interface EventSubject {
	instanceId?: string;
	linkId?: string;
}

type EventData = Record<string, unknown>;

function idIn(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

function fieldsOf(value: unknown): EventData {
	return value !== null && typeof value === 'object' ? (value as EventData) : {};
}

/** The instance of a messaging event: its `instanceId`, or the instance itself (`instance.*`). */
export function instanceOfEvent(type: string, data: unknown): string | undefined {
	const fields = fieldsOf(data);
	return idIn(fields.instanceId) ?? (type.startsWith('instance.') ? idIn(fields.id) : undefined);
}

/** The link of a link event: the link itself, or the one clicked (`link.clicked` carries `{ link, click }`). */
export function linkOfEvent(type: string, data: unknown): string | undefined {
	if (!type.startsWith('link.')) return undefined;
	const fields = fieldsOf(data);
	return idIn(fieldsOf(fields.link).id) ?? idIn(fieldsOf(fields.click).linkId) ?? idIn(fields.id);
}

/** Both: what the service matches a webhook's filters with. */
export function eventSubject(type: string, data: unknown): EventSubject {
	const instanceId = instanceOfEvent(type, data);
	const linkId = linkOfEvent(type, data);
	return { ...(instanceId ? { instanceId } : {}), ...(linkId ? { linkId } : {}) };
}

export { AutomationEventName };
