import { z } from '../zod';
import { CONTACT_ID_PATTERN, HIDDEN_NUMBER_CHAT_ID_PATTERN, USERNAME_PATTERN } from '../chat-ids';
import { PhoneNumber } from '../schemas';

/** How a request names a person (the contract, 2026-11-28 "people"): sends, chats, who may answer. */

/**
 * A person, by any of their names: their number, their chat id (`…@lid` when they hide their number), their
 * contact id or their `@username`. Every form but a number names one contact of the instance; an unknown one is
 * 404 `contact_not_found` naming the field, never a guess (the message would go to someone else).
 */
export const personForms = [
	PhoneNumber,
	z
		.string()
		.regex(
			/^[1-9][0-9]{6,14}@s\.whatsapp\.net$/,
			"must be a person's chat id, like 14155550123@s.whatsapp.net",
		),
	z
		.string()
		.regex(
			HIDDEN_NUMBER_CHAT_ID_PATTERN,
			'must be the chat id of a person who hides their number, ending in @lid',
		),
	z.string().regex(CONTACT_ID_PATTERN, 'must be a contact id, like ct_3f9a1c2e4b5d6e7f'),
	z.string().regex(USERNAME_PATTERN, 'must be a username, like @maria.lopez'),
] as const;

/** How a person is named, in words for the OpenAPI descriptions. */
export const PERSON_FORMS_RULE =
	"a person's number in E.164 (`+14155550123`); their chat id (`14155550123@s.whatsapp.net`, or `…@lid` for a person who hides their number, as received messages carry it in `chatId`); their contact id (`ct_…`, as received messages carry it in `from` when the number is hidden); or their `@username`. A chat id `…@lid`, contact id or username the instance does not know is 404 `contact_not_found` naming the field";

/** A person (`personForms`). */
export const Person = z.union(personForms);
