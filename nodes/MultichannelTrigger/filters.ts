import { NodeOperationError, type INode, type INodeProperties } from 'n8n-workflow';

import type { EventEnvelope } from '../../src/client';
import { isGathered } from '../../src/client/resources/gathered-messages';
import { invalidValueMessage } from '../shared/input-errors';
import type { ChosenOptions, TriggerContext } from '../shared/trigger';
import { splitList } from '../shared/values';
import { chatKeyOf, chatKeysOfEvent, isGroupChat, type ChatKey } from './chats';
import { compilePattern, patternMatches } from './text-pattern';

/**
 * The trigger's message filters, so that several workflows share an instance and each message is answered by the
 * one meant for it: the text (a keyword it contains or starts with, or a pattern), the kind of message, people or
 * groups, chosen chats. They look at received messages only (`message.received`); every other event passes. A
 * gathered burst passes when any one of its messages passes. A filtered-out message is acknowledged and starts
 * nothing, as the reply filters do (replies.ts).
 */

/** What each kind of the Message Kinds option is, by the message's `type` (a tap is any message with `reply`). */
const KINDS = [
	{ name: 'Text', value: 'text', types: ['text'] },
	{ name: 'Image', value: 'image', types: ['image'] },
	{ name: 'Video', value: 'video', types: ['video'] },
	{ name: 'Audio or Voice Note', value: 'audio', types: ['audio', 'voice'] },
	{ name: 'Document (PDF and Other Files)', value: 'document', types: ['document'] },
	{ name: 'Sticker', value: 'sticker', types: ['sticker'] },
	{ name: 'Location', value: 'location', types: ['location'] },
	{ name: 'Contact Card', value: 'contact', types: ['contact'] },
	{ name: 'Tap on a Button or List Row', value: 'tap', types: [] },
];

export const messageFilterOptions: INodeProperties[] = [
	{
		displayName: 'Text Contains',
		name: 'textContains',
		type: 'string',
		default: '',
		placeholder: 'refund',
		description:
			'Only messages whose text contains this, in any case (the caption of a file, the title of a tapped button). A gathered burst passes when any one of its messages does. Events other than received messages are not filtered.',
	},
	{
		displayName: 'Text Starts With',
		name: 'textStartsWith',
		type: 'string',
		default: '',
		placeholder: 'help',
		description:
			'Only messages whose text starts with this keyword, in any case, spaces before it ignored (the caption of a file, the title of a tapped button). A gathered burst passes when any one of its messages does. Events other than received messages are not filtered.',
	},
	{
		displayName: 'Text Matches Pattern',
		name: 'textPattern',
		type: 'string',
		default: '',
		placeholder: '^(hi|hello)\\b',
		description:
			'Only messages whose text matches this regular expression, in any case (its first 4,096 characters are tested). A gathered burst passes when any one of its messages does. Events other than received messages are not filtered.',
	},
	{
		displayName: 'Message Kinds',
		name: 'messageKinds',
		type: 'multiOptions',
		default: ['text'],
		options: KINDS.map(({ name, value }) => ({ name, value })),
		description:
			'Only received messages of these kinds (none chosen: every kind); other kinds (reactions, polls) are skipped. A gathered burst passes when any one of its messages does. Events other than received messages are not filtered.',
	},
	{
		displayName: 'Chat Type',
		name: 'chatType',
		type: 'options',
		default: 'people',
		options: [
			{ name: 'People (One-to-One Chats)', value: 'people' },
			{ name: 'Groups', value: 'groups' },
		],
		description:
			'Only messages received in a chat with one person, or only in groups; also reactions, edits, deletions and presence. Other events are not filtered.',
	},
	{
		displayName: 'Chats',
		name: 'chats',
		type: 'string',
		default: '',
		placeholder: '+14155550123, 120363025246125486@g.us',
		description:
			"Only messages of these chats, separated by commas: a person's number with its country code (+14155550123 or 0014155550123; their chat ID 14155550123@s.whatsapp.net is the same chat), a person who hides their number by their contact ID (ct_…, the message's From), @username or chat ID (…@lid), or a group's chat ID (…@g.us); also reactions, edits, deletions and presence in them. Other events are not filtered.",
	},
	{
		displayName: 'Only Messages That Mention Me',
		name: 'onlyMentioningMe',
		type: 'boolean',
		default: true,
		description:
			'Whether to start only for messages that mention this instance\'s own number (or everyone in a group), as "mentionsMe" says: a group where the workflow answers when called on. A gathered burst passes when any one of its messages does. Events other than received messages are not filtered.',
	},
];

/** The contact's acts in a chat, which the Chat Type and Chats filters look at besides received messages. */
export const CHAT_ACT_EVENTS = [
	'message.reaction',
	'message.edited',
	'message.deleted',
	'presence.updated',
];

/** The events an option of the message filters looks at: received messages, and the acts for the chat filters. */
export function eventsOfMessageFilter(option: string): string[] {
	const acts = option === 'chatType' || option === 'chats' ? CHAT_ACT_EVENTS : [];
	return ['message.received', ...acts];
}

/** The filters as one delivery applies them, read from the Options it read once. */
interface MessageFilters {
	contains?: string;
	startsWith?: string;
	pattern?: RegExp;
	kinds?: Set<string>;
	chatType?: 'people' | 'groups';
	chats?: Set<ChatKey>;
	mentioningMe?: boolean;
}

function refused(node: INode, field: string, problem: string, description?: string) {
	return new NodeOperationError(node, invalidValueMessage(field, undefined, problem), {
		...(description ? { description } : {}),
	});
}

/** A keyword as the text filters compare it (lower case, trimmed), or undefined when none is given. */
function keywordOf(value: unknown): string | undefined {
	const trimmed = typeof value === 'string' ? value.trim() : '';
	return trimmed === '' ? undefined : trimmed.toLowerCase();
}

/** The message filters of the Options; throws, naming the option, when one cannot work. */
export function readMessageFilters(node: INode, options: ChosenOptions): MessageFilters {
	const filters: MessageFilters = {
		contains: keywordOf(options.textContains),
		startsWith: keywordOf(options.textStartsWith),
	};
	if (typeof options.textPattern === 'string' && options.textPattern !== '') {
		const compiled = compilePattern(options.textPattern);
		if ('problem' in compiled) {
			throw refused(
				node,
				'Text Matches Pattern',
				compiled.problem,
				'Write a JavaScript regular expression without slashes or flags, such as ^(hi|hello)\\b; it is tested case insensitive.',
			);
		}
		filters.pattern = compiled.pattern;
	}
	if (options.messageKinds !== undefined) {
		const kinds = splitList(options.messageKinds);
		const unknown = kinds.filter((kind) => !KINDS.some(({ value }) => value === kind));
		if (unknown.length > 0) {
			throw refused(
				node,
				'Message Kinds',
				`unknown kind ${unknown.join(', ')}`,
				`The kinds are ${KINDS.map(({ value }) => value).join(', ')}.`,
			);
		}
		// None chosen means every kind, as no instance chosen means every instance.
		if (kinds.length > 0) filters.kinds = new Set(kinds);
	}
	if (options.chatType !== undefined) {
		if (options.chatType !== 'people' && options.chatType !== 'groups') {
			throw refused(
				node,
				'Chat Type',
				`"${String(options.chatType)}" is neither people nor groups`,
			);
		}
		filters.chatType = options.chatType;
	}
	if (options.chats !== undefined) {
		const entries = splitList(options.chats);
		const keys = entries.map((entry) => {
			const read = chatKeyOf(entry);
			if ('problem' in read) throw refused(node, 'Chats', read.problem);
			return read.key;
		});
		if (keys.length > 0) filters.chats = new Set(keys);
	}
	if (options.onlyMentioningMe === true) filters.mentioningMe = true;
	return filters;
}

/** Checks the message filters when the trigger is activated, so that a bad one is refused before any delivery. */
export function checkMessageFilters(context: TriggerContext, options: ChosenOptions): void {
	readMessageFilters(context.getNode(), options);
}

type MessageData = Record<string, unknown>;

function fieldsOf(value: unknown): MessageData {
	return value !== null && typeof value === 'object' ? (value as MessageData) : {};
}

/** A message's kind: `tap` for a tap, else its type. */
function kindOf(message: MessageData): string | undefined {
	if (message.reply !== null && typeof message.reply === 'object') return 'tap';
	const type = typeof message.type === 'string' ? message.type : undefined;
	return KINDS.find(({ types }) => type !== undefined && types.includes(type))?.value ?? type;
}

/** The text the text filters look at: the text, a file's caption, a tapped button's title. */
function textOf(message: MessageData): string {
	const content = fieldsOf(message.content);
	for (const value of [content.text, content.caption, fieldsOf(message.reply).title]) {
		if (typeof value === 'string' && value !== '') return value;
	}
	return '';
}

/** Why one message does not pass the kind and text filters, or undefined when it passes. */
function messageLeftOut(filters: MessageFilters, message: MessageData): string | undefined {
	if (filters.mentioningMe && message.mentionsMe !== true)
		return 'a message that does not mention me';
	const kind = kindOf(message);
	if (filters.kinds && !(kind && filters.kinds.has(kind)))
		return `a message of kind ${kind ?? 'unknown'}, not one of Message Kinds`;
	const text = textOf(message);
	const lower = text.toLowerCase();
	if (filters.contains !== undefined && !lower.includes(filters.contains))
		return 'text without Text Contains';
	if (filters.startsWith !== undefined && !lower.trimStart().startsWith(filters.startsWith)) {
		return 'text not starting with Text Starts With';
	}
	if (filters.pattern && !patternMatches(filters.pattern, text))
		return 'text not matching Text Matches Pattern';
	return undefined;
}

/** The trigger's `skip` for the message filters: why a received message (or burst) does not start this workflow. */
export function skipFilteredMessage(
	context: TriggerContext,
	event: EventEnvelope,
	options: ChosenOptions,
): string | undefined {
	if (event.type !== 'message.received' && !CHAT_ACT_EVENTS.includes(event.type)) return undefined;
	const filters = readMessageFilters(context.getNode(), options);
	const data = event.data;
	if (filters.chatType === 'people' && isGroupChat(data)) return 'a group chat (Chat Type: People)';
	if (filters.chatType === 'groups' && !isGroupChat(data))
		return 'not a group chat (Chat Type: Groups)';
	if (filters.chats) {
		const chosen = filters.chats;
		if (!chatKeysOfEvent(data).some((key) => chosen.has(key))) return 'a chat not among Chats';
	}
	// A reaction, an edit, a deletion or presence is filtered by its chat only: text and kinds are of messages.
	if (event.type !== 'message.received') return undefined;
	const messages = isGathered(data) ? data.messages.map(fieldsOf) : [data];
	const reasons = messages.map((message) => messageLeftOut(filters, message));
	return reasons.some((reason) => reason === undefined) ? undefined : reasons[0];
}
