import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isGroupChatId } from '../../../../src/client/chat-ids';
import { MAX_MENTIONS, withMentionsShown } from '../../../../src/client/resources/mentions';
import { invalidValue } from '../../../shared/input-errors';
import { normalisePhoneNumbers } from '../../../shared/phone';
import type { OperationContext } from '../../../shared/resources';

/**
 * Mentions of Send Text and Send Media (the caption): the numbers, read through the one phone rule with the
 * Default Country, and Mention Everyone in a group. A mention notifies only when the text shows it as
 * `@<number>`, so the node adds each one the text does not show yet at its end (the service refuses a mention
 * the text does not show); a mention that silently does not notify is what the peers' users complain of.
 */

export function mentionOptions(where: 'text' | 'caption'): INodeProperties[] {
	return [
		{
			displayName: 'Mentions',
			name: 'mentions',
			type: 'string',
			default: '',
			placeholder: 'e.g. +14155550123, +442079460958',
			description: `People to mention (up to ${MAX_MENTIONS}), separated by commas: phone numbers with their country code, or as written in the Default Country. Each is notified. The ${where} shows each as @ and the number (such as @14155550123); one the ${where} does not show yet is added at its end. In a group each must be a member; in a chat with one person, that person.`,
		},
		{
			displayName: 'Mention Everyone',
			name: 'mentionEveryone',
			type: 'boolean',
			default: false,
			description: `Whether to mention every member of the group, each of them notified (groups only; the ${where} need not name them)`,
		},
	];
}

/** Field names of the mentions in a request, as the user sees them. */
export const mentionFieldNames = {
	'body.mentions': 'Mentions',
	'body.mentionEveryone': 'Mention Everyone',
};

/**
 * The mentions of an item, and its text (or caption) with each mention shown; nothing when none is asked for.
 * Mention Everyone to a person (not a group) is refused here, before any request, naming the field.
 */
export function readMentions(
	context: IExecuteFunctions,
	{ itemIndex, defaultCountry, options }: OperationContext<unknown>,
	to: string,
	words: string | undefined,
): { text: string | undefined; mentions?: string[]; mentionEveryone?: true } {
	const node = context.getNode();
	const raw = options.mentions;
	const everyone = options.mentionEveryone === true;
	const empty =
		raw === undefined ||
		raw === null ||
		String(raw).trim() === '' ||
		(Array.isArray(raw) && raw.length === 0);
	if (everyone && !isGroupChatId(to)) {
		throw invalidValue(
			node,
			'Mention Everyone',
			itemIndex,
			'it is for groups only, and this message goes to one person',
			'Turn it off, or mention the person with Mentions.',
		);
	}
	if (empty) return { text: words, ...(everyone ? { mentionEveryone: true as const } : {}) };
	const mentions = [
		...new Set(normalisePhoneNumbers(raw, 'Mentions', itemIndex, node, defaultCountry)),
	];
	if (mentions.length > MAX_MENTIONS) {
		throw invalidValue(
			node,
			'Mentions',
			itemIndex,
			`at most ${MAX_MENTIONS} people can be mentioned in one message (found ${mentions.length})`,
			'In a group, Mention Everyone mentions every member.',
		);
	}
	return {
		text: withMentionsShown(words ?? '', mentions),
		mentions,
		...(everyone ? { mentionEveryone: true as const } : {}),
	};
}
