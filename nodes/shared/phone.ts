import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { defaultCountryOptions } from '../../credentials/common';
import {
	groupChatId,
	isGroupChatId,
	numberOfPersonChatId,
	personWithoutNumber,
	usernameProblem,
} from '../../src/client/chat-ids';
import { listEntries } from '../../src/client/lists';
import { defaultCountryOf, toE164, type PhoneReading } from '../../src/client/phone-number';
import { invalidValue } from './input-errors';

/**
 * A phone number as a person types it, in the one form the service takes (E.164), by the client's rule
 * (`toE164`, shared with the sandbox console): national forms are read in the default country (the node's, else
 * the credential's; `OperationContext.defaultCountry`). Anything that cannot be a number, or that looks national
 * with no default country, is an input error naming the field and the item, thrown before any request is made.
 */
export function normalisePhoneNumber(
	value: unknown,
	field: string,
	itemIndex: number,
	node: INode,
	defaultCountry: string | undefined,
): string {
	const result = toE164(value, defaultCountry);
	if ('number' in result) return result.number;
	throw invalidValue(node, field, itemIndex, result.problem, result.hint);
}

/**
 * Several values in one field, by the one list rule (`listEntries`: commas, semicolons or new lines, or an array
 * given by an expression), trimmed; an empty list is an input error.
 */
function listedValues(value: unknown, field: string, itemIndex: number, node: INode): string[] {
	const asText = (part: unknown) => (typeof part === 'number' ? String(part) : String(part ?? ''));
	const parts = listEntries(Array.isArray(value) ? value.map(asText) : asText(value)) ?? [];
	if (parts.length === 0) {
		throw invalidValue(
			node,
			field,
			itemIndex,
			'enter at least one phone number',
			'Separate several numbers with commas, such as +14155550123, +442079460958.',
		);
	}
	return parts;
}

/** How a field's value is read into the form the service takes (a number, a person's number). */
type Reader = (
	value: unknown,
	field: string,
	itemIndex: number,
	node: INode,
	defaultCountry: string | undefined,
) => string;

/** Several values of one field (`listedValues`), each read by `read`. */
const eachOf =
	(read: Reader) =>
	(...[value, field, itemIndex, node, defaultCountry]: Parameters<Reader>): string[] =>
		listedValues(value, field, itemIndex, node).map((part) =>
			read(part, field, itemIndex, node, defaultCountry),
		);

/** Several numbers in one field, each normalised. */
export const normalisePhoneNumbers = eachOf(normalisePhoneNumber);

/**
 * A person's number in E.164, or why it cannot be one, without throwing (a campaign reports each recipient's
 * problem): a number, or their chat ID read as it; a group is refused, as it cannot be one person, and so is a
 * person named without a number (campaigns go to numbers only).
 */
export function readPersonNumber(value: unknown, defaultCountry: string | undefined): PhoneReading {
	const text = typeof value === 'string' ? value.trim() : value;
	if (isGroupChatId(text)) {
		return { problem: `${String(text)} is a group; name people, by their numbers`, hint: '' };
	}
	if (typeof text === 'string' && personWithoutNumber(text) !== undefined) {
		return {
			problem: `${text} names a person without their number; a campaign goes to phone numbers only`,
			hint: 'Send to this person with Message → Send Text (To takes a contact ID or @username).',
		};
	}
	const person = typeof text === 'string' ? numberOfPersonChatId(text) : undefined;
	return person ? toE164(person) : toE164(text, defaultCountry);
}

/**
 * Text that starts with @ is meant as a username (no number or chat ID does): one that breaks the rule is refused
 * as a username, not as "not a valid phone number", before any request.
 */
export function refuseBadUsername(
	value: unknown,
	field: string,
	itemIndex: number,
	node: INode,
): void {
	const problem = typeof value === 'string' ? usernameProblem(value) : undefined;
	if (problem === undefined) return;
	throw invalidValue(
		node,
		field,
		itemIndex,
		problem,
		"Type the username as the person shows it, such as @maria.lopez, or name them by their phone number (+14155550123) or contact ID (ct_…, a message's from when the number is hidden).",
	);
}

/**
 * A person: named without a number (contact ID, @username, …@lid chat ID) as given, else `readPersonNumber`, or an
 * input error naming the field and the item.
 */
const normalisePerson: Reader = (value, field, itemIndex, node, defaultCountry) => {
	const text = typeof value === 'string' ? value.trim() : value;
	const withoutNumber = typeof text === 'string' ? personWithoutNumber(text) : undefined;
	if (withoutNumber !== undefined) return withoutNumber;
	refuseBadUsername(text, field, itemIndex, node);
	const result = readPersonNumber(value, defaultCountry);
	if ('number' in result) return result.number;
	throw invalidValue(node, field, itemIndex, result.problem, result.hint || undefined);
};

/** Several people in one field: numbers (a person's chat ID read as their number), contact IDs, @usernames. */
export const normalisePeople = eachOf(normalisePerson);

/** What a typed phone number is made of; anything else given as a chat is an id. */
const PHONE_CHARACTERS = /^[\d\s\u00a0\u2010-\u2015\-./()+]+$/;

/**
 * A recipient: a group ID (its suffix in lower case), a person named without a number (contact ID, @username,
 * …@lid chat ID) as given, a person's chat ID as its number, or a phone number, normalised. So "reply to this
 * chat" is one expression, `chatId` (or `from`), whether the chat is a person, one who hides their number, or a group.
 */
export const normaliseRecipient: Reader = (value, field, itemIndex, node, defaultCountry) => {
	const text = typeof value === 'string' ? value.trim() : value;
	if (typeof text === 'string' && isGroupChatId(text)) return groupChatId(text);
	const withoutNumber = typeof text === 'string' ? personWithoutNumber(text) : undefined;
	if (withoutNumber !== undefined) return withoutNumber;
	const person = typeof text === 'string' ? numberOfPersonChatId(text) : undefined;
	if (person) return normalisePhoneNumber(person, field, itemIndex, node, undefined);
	refuseBadUsername(text, field, itemIndex, node);
	return normalisePhoneNumber(text, field, itemIndex, node, defaultCountry);
};

/**
 * A chat, wherever one is named: its chat ID as it is (every chat ID has an `@`), a person's phone number (as a
 * person or an AI model gives it: `14155550181`, `+1 415 555 0181`, `(415) 555-0181` with a default country) in
 * E.164, which the service takes in place of that person's chat ID, or a person's contact ID or @username.
 * Anything else (a name, such as an AI model may give) is an input error that says how to name a chat: the service
 * would answer it with an empty chat.
 */
export function normaliseChat(
	value: string,
	field: string,
	itemIndex: number,
	node: INode,
	defaultCountry: string | undefined,
): string {
	if (PHONE_CHARACTERS.test(value)) {
		return normalisePhoneNumber(value, field, itemIndex, node, defaultCountry);
	}
	const withoutNumber = personWithoutNumber(value);
	if (withoutNumber !== undefined) return withoutNumber;
	refuseBadUsername(value, field, itemIndex, node);
	if (value.includes('@')) return value;
	throw invalidValue(
		node,
		field,
		itemIndex,
		`"${value}" is neither a chat ID, a contact ID, a username (with its @) nor a phone number`,
		"Name the chat by its chat ID, as messages carry it in chatId (14155550123@s.whatsapp.net for a person, …@lid for one who hides their number, …@g.us for a group), by the person's phone number (+14155550123), contact ID (ct_…, a message's from when the number is hidden) or @username. To find a chat by a name, use Chat → Get Many with Search.",
	);
}

/** The node's Default Country (operations that take numbers), in place of the credential's for this node. */
export const defaultCountryField = defaultCountryOptions(
	'From Credential',
	'The country whose national numbers, such as (415) 555-0177 in the United States or 030 1234567 in Germany, are written here without a country code. By default, the one chosen in the credential.',
);

/** The country an item's national numbers are read in: the node's Default Country, else the credential's. */
export function defaultCountryFor(
	context: IExecuteFunctions,
	itemIndex: number,
	credentialCountry: string | undefined,
): string | undefined {
	return (
		defaultCountryOf(context.getNodeParameter('defaultCountry', itemIndex, '')) ?? credentialCountry
	);
}
