import type { MessageMedia } from '../../src/client/resources/message-media';

/**
 * The records of a conversation's extras (issue 36): calls, scheduled sends, labels and statuses; and the people it
 * is with, the instance's contacts.
 */

/** A call to an instance's number (sandbox/channel/calls.ts). */
export interface CallRecord {
	id: string;
	workspaceId: string;
	instanceId: string;
	from: string;
	chatId: string;
	media: 'voice' | 'video';
	groupId: string | null;
	status: 'ringing' | 'missed' | 'rejected' | 'ended';
	rejectedBy: 'api' | 'setting' | null;
	rejectMessageId: string | null;
	/** When it stops ringing unanswered (missed). */
	ringsUntil: string;
	createdAt: string;
	endedAt: string | null;
}

/**
 * A send with `sendAt` (sandbox/channel/scheduled.ts): the message as it will go, kept until its time; once sent or
 * cancelled it stays a while, so that a list shows it and a cancel can say why not.
 */
export interface ScheduledMessageRecord {
	/** The id the message has, now and once sent. */
	id: string;
	workspaceId: string;
	instanceId: string;
	chatId: string;
	to: string;
	type: string;
	content: Record<string, unknown>;
	media?: MessageMedia | null;
	trackLinks?: boolean;
	fetch?: { url: string; mimeType?: string; fileName?: string };
	status: 'scheduled' | 'sent' | 'cancelled';
	sendAt: string;
	createdAt: string;
	updatedAt: string;
	sentAt?: string;
	late?: boolean;
	cancelledAt?: string;
	/** Whom its text or caption mentions, as checked when it was scheduled. */
	mentioned?: { mentions?: string[]; mentionEveryone?: boolean };
}

/** A workspace's label (at most MAX_LABELS per workspace). */
export interface LabelRecord {
	id: string;
	workspaceId: string;
	name: string;
	color: string;
	createdAt: string;
	updatedAt: string;
}

/** The labels of one chat, in the order they were put on; removed once it has none (`<instance>/<chat>`). */
export interface ChatLabelRecord {
	id: string;
	workspaceId: string;
	instanceId: string;
	chatId: string;
	labelIds: string[];
}

/** A status (story) of an instance: lives 24 hours (sandbox/statuses.ts expires it). */
export interface StatusRecord {
	id: string;
	workspaceId: string;
	instanceId: string;
	type: 'text' | 'image' | 'video';
	text: string | null;
	backgroundColor: string | null;
	caption: string | null;
	url: string | null;
	media: MessageMedia | null;
	/** The numbers of the contacts who viewed it, each once. */
	viewers: string[];
	createdAt: string;
	expiresAt: string;
}

/** A chat handed over to a person (sandbox/channel/hand-over.ts): `<instance>/<chat>`, removed when given back. */
export interface HandOverRecord {
	id: string;
	workspaceId: string;
	instanceId: string;
	chatId: string;
	since: string;
	by: 'api' | 'business_phone';
	/** The quiet period's end: given back then, unless a message from the business's own phone comes first. */
	givesBackAt: string;
}

/** The id of a chat's hand-over record: read by the event fan-out too (core.ts), so kept with the record. */
export const handOverIdOf = (instanceId: string, chatId: string) => `${instanceId}/${chatId}`;

/** A person in the instance's address book: by number, or (hidden number) by username and `…@lid` chat id. */
export interface ContactRecord {
	id: string;
	workspaceId: string;
	instanceId: string;
	/** Null for a person who hides their number (the channel gives only their username and linked id). */
	phoneNumber: string | null;
	/** Without the `@`, as the person chose it. */
	username?: string;
	/** A person who hides their number: their chat id, `<digits>@lid`. */
	hiddenNumberChatId?: string;
	name: string | null;
	email: string | null;
	tags: string[];
	blocked: boolean;
	createdAt: string;
	updatedAt: string;
}
