import { z } from '../zod';

import { Id, named, Timestamp } from '../schemas';
import { Message } from './messages';

/**
 * What a contact does besides writing (SERVICE.md, "people", 2026-11-28), each an event: a reaction put on or
 * taken off, a message edited or deleted (by the contact, or by the business through the API), presence (typing,
 * recording, online, offline), and the channel restricting the instance.
 */

/** Who changed a message: the contact on their phone, or the business (through the API). */
export const ChangedBy = z
	.enum(['contact', 'business'])
	.describe(
		'`contact`: the contact changed their own message; `business`: the instance did, through the API',
	);

export const MessageReaction = named(
	'MessageReaction',
	z.looseObject({
		instanceId: Id,
		chatId: z.string().describe('The chat of the message reacted to (a person, or a group)'),
		messageId: Id.describe('The message reacted to'),
		emoji: z.string().describe('The emoji put on, or the one taken off'),
		action: z.enum(['added', 'removed']).or(z.string()),
		from: z
			.string()
			.describe('Who reacted: their number, or their contact id (`ct_…`) when they hide it'),
		phone: z.string().optional().describe('Their number, when they show it'),
		username: z.string().optional().describe('Their username, when they have one'),
		messageDirection: z
			.enum(['outbound', 'inbound'])
			.or(z.string())
			.describe(
				'`outbound`: a message the instance sent; `inbound`: one the contact (or a member) sent',
			),
		reactedAt: Timestamp,
	}),
);

export const MessageEdited = named(
	'MessageEdited',
	Message.extend({
		by: ChangedBy,
		previousText: z.string().nullable().optional().describe('The text before this edit'),
	}),
);

export const MessageDeleted = named(
	'MessageDeleted',
	Message.extend({
		by: ChangedBy,
		deletedAt: Timestamp.describe(
			'When it was deleted; the message as it was is in the other fields',
		),
	}),
);

export const PRESENCE_STATES = ['typing', 'recording', 'online', 'offline'] as const;

/** Presence comes often: a webhook gets it only when it names `presence.updated` (`*` leaves it out). */
export const PresenceUpdate = named(
	'PresenceUpdate',
	z
		.looseObject({
			instanceId: Id,
			from: z
				.string()
				.describe('The contact: their number, or their contact id (`ct_…`) when they hide it'),
			phone: z.string().optional().describe('Their number, when they show it'),
			username: z.string().optional().describe('Their username, when they have one'),
			state: z.enum(PRESENCE_STATES).or(z.string()),
			chatId: z
				.string()
				.nullable()
				.describe(
					'Where the contact types or records (a person, or a group); null for online and offline, which are the contact’s own',
				),
			at: Timestamp,
		})
		.describe(
			'Delivered only to webhooks that name `presence.updated`: `*` (every event) leaves it out, as it comes many times a minute. Typing and recording come again every few seconds while they last; `online` or `offline` only when it changes',
		),
);

/** The channel's limit on an instance: a warning before a ban, why, and until when. */
export const Restriction = named(
	'Restriction',
	z.looseObject({
		reason: z
			.enum(['spam_reports', 'unusual_activity', 'policy_violation'])
			.or(z.string())
			.describe('Why the channel limits the instance'),
		description: z.string().describe('The channel’s words for it'),
		until: Timestamp.nullable().describe(
			'When the limit ends; null when the channel gave no end. A ban may follow if what caused it goes on',
		),
		restrictedAt: Timestamp,
	}),
);

export const InstanceRestriction = named(
	'InstanceRestriction',
	Restriction.extend({ id: Id.describe('The instance'), instanceId: Id }),
);
