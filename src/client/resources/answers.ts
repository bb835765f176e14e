import { z } from '../zod';

import { operation } from '../operation';
import {
	DateTimeInput,
	Id,
	ListQuery,
	named,
	page,
	pathParams,
	Timestamp,
	Url,
	text,
} from '../schemas';
import { Recipient } from './message-sends';
import { Person, PERSON_FORMS_RULE } from './people';

/**
 * Waiting for an answer: a one-shot registration "deliver the answer to message M, from M's chat, to this URL".
 * Registered before the question is sent (`to` instead of `messageId`), it is pending until the send that names
 * it (`answerRegistrationId`) makes that message M, in the same step: no message can arrive between the question
 * and its registration, so an answer is never also delivered to webhooks as an ordinary message.
 * The service delivers the first answer once, signed with the registration's secret like any webhook delivery
 * (`message.answered`), and then forgets the registration; it also forgets it at `expiresAt`, on DELETE, and
 * when the receiver answers the delivery 404, 409 or 410 (the waiting side is gone).
 */

/** The event type of an answer's delivery. */
export const ANSWER_EVENT = 'message.answered';

/** The longest a registration may wait. */
export const MAX_ANSWER_WAIT_DAYS = 30;

export const AnswerKind = z.enum(['reply', 'text']);

/** How many people a registration may name in `allowedToAnswer`. */
export const MAX_ALLOWED_TO_ANSWER = 50;

export const AllowedToAnswer = z
	.array(Person)
	.min(1)
	.max(MAX_ALLOWED_TO_ANSWER)
	.describe(
		`Who may answer (up to ${MAX_ALLOWED_TO_ANSWER}), each ${PERSON_FORMS_RULE}. Any other person's answer is not taken (the registration keeps waiting, and the message is marked \`answeredQuestion\` with \`refused: true\`, so that webhooks' receivers leave it alone too); the instance tells that person in the chat, once per question, who can answer. Leave it out: anyone in the chat`,
	);

export const AfterAnswer = named(
	'AfterAnswer',
	z
		.strictObject({
			editQuestion: z
				.boolean()
				.optional()
				.describe(
					'Edit the question to show the outcome under it: the answer, who gave it and when (`message.edited`)',
				),
			removeButtons: z
				.boolean()
				.optional()
				.describe(
					'Remove its reply buttons or list (the message becomes a `text` one), so that nobody taps it again; a later tap on it is refused',
				),
		})
		.describe('What the service does to the question once it is answered; nothing by default'),
);

export const RegisterAnswer = named(
	'RegisterAnswer',
	z.strictObject({
		messageId: Id.optional().describe(
			'The message to be answered: one this instance sent. Leave it out and name `to` to register before sending',
		),
		to: Recipient.optional().describe(
			'Instead of `messageId`: the chat to be asked. The registration is `pending` until a send to that chat names it in `answerRegistrationId`; that message is the question',
		),
		reference: text({ min: 1, max: 200 })
			.optional()
			.describe("The client's name for the question, echoed in the answer's delivery"),
		accepts: z
			.array(AnswerKind)
			.min(1)
			.describe(
				'What answers it: `reply`, a tap on one of its reply buttons or list rows; `text`, the next text message in its chat',
			),
		url: Url.describe('Where the answer is delivered (POST), once'),
		secret: text({ min: 32, max: 200 }).describe(
			'Signs the delivery (`X-Multichannel-Signature`) as a webhook secret does; never shown again',
		),
		expiresAt: DateTimeInput.describe(
			`When the registration ends unanswered; at most ${MAX_ANSWER_WAIT_DAYS} days ahead`,
		),
		allowedToAnswer: AllowedToAnswer.optional(),
		afterAnswer: AfterAnswer.optional(),
	}),
);

export const AnswerRegistration = named(
	'AnswerRegistration',
	z.looseObject({
		id: Id,
		instanceId: Id,
		messageId: Id.nullable().describe('The question; null while pending'),
		chatId: z.string(),
		accepts: z.array(AnswerKind.or(z.string())),
		status: z
			.enum(['pending', 'waiting', 'answered'])
			.or(z.string())
			.describe(
				'`pending`: the question is not sent yet; `answered`: an answer came and is being delivered',
			),
		expiresAt: Timestamp,
		createdAt: Timestamp,
		allowedToAnswer: z
			.array(z.string())
			.optional()
			.describe(
				'Who may answer, as received messages name them in `from`: numbers in E.164 (chat ids and usernames read as the number), or the contact id of a person who hides their number; absent: anyone in the chat',
			),
		afterAnswer: AfterAnswer.optional(),
	}),
);

export const Answer = named(
	'Answer',
	z.looseObject({
		type: z
			.enum(['button', 'list', 'text'])
			.or(z.string())
			.describe('A tapped reply button, a tapped list row, or a typed text'),
		id: z.string().nullable().describe('The id of the button or row; null for a text'),
		title: z.string().nullable().describe('The title of the button or row; null for a text'),
		text: z.string().nullable().describe('The text of the answering message'),
	}),
);

/** The `data` of a `message.answered` delivery. */
export const AnswerDelivery = named(
	'AnswerDelivery',
	z.looseObject({
		registrationId: Id,
		instanceId: Id,
		chatId: z.string(),
		messageId: Id.describe('The message that was answered'),
		answer: Answer,
		from: z.string().nullable().describe('Who answered'),
		answeredAt: Timestamp,
		answerMessageId: Id.describe('The received message that is the answer'),
		reference: z.string().nullish().describe("The registration's `reference`"),
	}),
);

const onInstance = pathParams('instanceId');
const byId = pathParams('instanceId', 'answerId');

export const answerOperations = {
	register: operation({
		method: 'POST',
		path: '/instances/{instanceId}/answers',
		summary:
			'Wait for the answer to a message: its first answer is delivered once to the URL, then the registration ends',
		scope: 'messaging:write',
		params: onInstance,
		body: RegisterAnswer,
		response: AnswerRegistration,
		status: 201,
		creates: true,
	}),
	list: operation({
		method: 'GET',
		path: '/instances/{instanceId}/answers',
		summary: 'List the registrations still waiting (or delivering) on an instance',
		scope: 'messaging:read',
		params: onInstance,
		query: ListQuery,
		response: page(AnswerRegistration),
		status: 200,
		paginated: true,
	}),
	get: operation({
		method: 'GET',
		path: '/instances/{instanceId}/answers/{answerId}',
		summary: 'Get a registration',
		scope: 'messaging:read',
		params: byId,
		response: AnswerRegistration,
		status: 200,
	}),
	delete: operation({
		method: 'DELETE',
		path: '/instances/{instanceId}/answers/{answerId}',
		summary: 'Stop waiting: the registration ends and nothing is delivered',
		scope: 'messaging:write',
		params: byId,
		status: 204,
	}),
};
