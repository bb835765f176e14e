import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { E164_PATTERN } from '../../../../../src/client/phone-number';
import { MAX_ALLOWED_TO_ANSWER } from '../../../../../src/client/resources/answers';
import { invalidValue } from '../../../../shared/input-errors';
import { normalisePeople } from '../../../../shared/phone';
import type { OperationContext } from '../../../../shared/resources';

/**
 * Send and Wait's controls, as n8n's Slack and Telegram send-and-wait have them: who may answer (the service
 * refuses anyone else's answer and tells them so in the chat), and what becomes of the question once answered
 * (edited to show the answer, its buttons or list removed, so that nobody taps twice).
 */

const ALLOWED_FIELD = 'Allowed to Answer';

export const allowedToAnswerOption: INodeProperties = {
	displayName: ALLOWED_FIELD,
	name: 'allowedToAnswer',
	type: 'string',
	default: '',
	placeholder: 'e.g. +14155550123, +442079460958',
	hint: `Up to ${MAX_ALLOWED_TO_ANSWER} people, separated by commas. Empty: anyone in the chat.`,
	description:
		"Only these people's answers count: phone numbers (with their country code, or as written in the Default Country) a person's chat ID (ending in @s.whatsapp.net), or, for a person who hides their number, their contact ID (ct_…) or @username, separated by commas. In a group, anyone else who answers is told in the chat that they cannot, and the workflow keeps waiting. In a chat with one person, only that person can answer, so name them. Empty: anyone in the chat.",
};

export const afterAnswerOption: INodeProperties = {
	displayName: 'After the Answer',
	name: 'afterAnswer',
	type: 'options',
	default: 'keep',
	options: [
		{
			name: 'Keep the Question',
			value: 'keep',
			description: 'The question stays as it was sent, with its buttons or list',
		},
		{
			name: 'Edit the Question to Show the Answer',
			value: 'showAnswer',
			description:
				'The question shows the answer, who gave it and when, and its buttons or list are removed, so that nobody taps twice',
		},
	],
	description: 'What becomes of the question in the chat once it is answered',
};

/** Field names of the controls in the registration, as the user sees them. */
export const answerControlFieldNames = {
	'body.allowedToAnswer': ALLOWED_FIELD,
	'body.afterAnswer': 'After the Answer',
};

/** The registration's `allowedToAnswer` and `afterAnswer`, each only when asked for. */
export function answerControls(
	context: IExecuteFunctions,
	{ itemIndex, defaultCountry, options }: OperationContext<unknown>,
	to: string,
): {
	allowedToAnswer?: string[];
	afterAnswer?: { editQuestion: true; removeButtons: true };
} {
	const raw = options.allowedToAnswer;
	const given = Array.isArray(raw) ? raw.length > 0 : String(raw ?? '').trim() !== '';
	const allowed = given
		? [
				...new Set(
					normalisePeople(raw, ALLOWED_FIELD, itemIndex, context.getNode(), defaultCountry),
				),
			]
		: undefined;
	if (allowed && allowed.length > MAX_ALLOWED_TO_ANSWER) {
		throw invalidValue(
			context.getNode(),
			ALLOWED_FIELD,
			itemIndex,
			`at most ${MAX_ALLOWED_TO_ANSWER} people can be named (found ${allowed.length})`,
		);
	}
	// In a chat with one person, only they write in it: naming others alone, nobody could ever answer. Told only
	// where it is sure: a person named without a number (contact ID, @username) may be the one a number names.
	const byNumber = (person: string) => E164_PATTERN.test(person);
	if (allowed && byNumber(to) && allowed.every(byNumber) && !allowed.includes(to)) {
		throw invalidValue(
			context.getNode(),
			ALLOWED_FIELD,
			itemIndex,
			`the question goes to ${to}, a chat with one person, where only they can answer: add ${to}, or leave the field empty`,
			'Allowed to Answer chooses among the members of a group. To have someone else answer, send the question to them, or to a group they are in.',
		);
	}
	const after = options.afterAnswer;
	return {
		...(allowed ? { allowedToAnswer: allowed } : {}),
		...(after === 'showAnswer'
			? { afterAnswer: { editQuestion: true as const, removeButtons: true as const } }
			: {}),
	};
}
