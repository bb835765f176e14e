import { z } from '../zod';

import { operation } from '../operation';
import { Id, named, pathParams, Timestamp, text } from '../schemas';

/** The longest text sent to a caller whose call is rejected, in characters. */
export const MAX_REJECT_TEXT = 1024;

export const CallStatus = z.enum(['ringing', 'missed', 'rejected', 'ended']);

/** A call to the instance's number: `call.received` while it rings, then `call.missed` or `call.rejected`. */
export const Call = named(
	'Call',
	z.looseObject({
		id: Id.describe('`call_…`'),
		instanceId: Id,
		from: z.string().describe("The caller's number (E.164)"),
		chatId: z.string().describe('The chat the call belongs to (the group of a group call)'),
		media: z.enum(['voice', 'video']).or(z.string()).describe('A voice or a video call'),
		isGroup: z.boolean().describe('A group call'),
		groupId: z.string().nullable().optional().describe('The group of a group call'),
		status: CallStatus.or(z.string()),
		rejectedBy: z
			.enum(['api', 'setting'])
			.or(z.string())
			.nullable()
			.optional()
			.describe('Who rejected it: a reject call (`api`) or the instance setting (`setting`)'),
		rejectMessageId: Id.nullable()
			.optional()
			.describe('The text message sent to the caller on rejecting, if any'),
		createdAt: Timestamp,
		endedAt: Timestamp.nullable().optional(),
	}),
);
export type Call = z.output<typeof Call>;

export const RejectCall = named(
	'RejectCall',
	z.strictObject({
		text: text({ min: 1, max: MAX_REJECT_TEXT })
			.optional()
			.describe('A text message sent to the caller once the call is rejected'),
	}),
);

export const callOperations = {
	reject: operation({
		method: 'POST',
		path: '/instances/{instanceId}/calls/{callId}/reject',
		summary: 'Reject a ringing call (call.rejected), optionally sending the caller a text',
		description:
			'A call that no longer rings (missed, rejected or ended) is a 409 `call_not_ringing`.',
		scope: 'messaging:write',
		params: pathParams('instanceId', 'callId'),
		body: RejectCall,
		response: Call,
		status: 200,
	}),
};
