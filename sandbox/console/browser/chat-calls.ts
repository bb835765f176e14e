import type { CallView, MessageView } from '../views';
import { el } from './dom';

/**
 * Calls in the chat, as a line between the messages: ringing (the caller can hang up), missed, or rejected,
 * by the instance (Call → Reject) or by its reject-calls setting, with the text it sent back.
 */

const time = (value: string) => new Date(value).toISOString().slice(11, 16);

function describe(call: CallView, me: string, rejectText: string | undefined): string {
	const kind = call.media === 'video' ? 'Video call' : 'Voice call';
	const who = call.from === me ? 'you' : call.from;
	switch (call.status) {
		case 'ringing':
			return `${kind} from ${who} · ringing…`;
		case 'missed':
			return `Missed ${kind.toLowerCase()} from ${who}`;
		case 'rejected': {
			const by = call.rejectedBy === 'setting' ? 'rejected by the instance’s setting' : 'rejected';
			return `${kind} from ${who} ${by}${rejectText ? `: “${rejectText}”` : ''}`;
		}
		default:
			return `${kind} from ${who} · ${call.status}`;
	}
}

/** One call as a line of the chat; `hangUp` is offered on the contact's own call while it rings. */
export function callRow(
	call: CallView,
	me: string,
	byId: Map<string, MessageView>,
	hangUp: (call: CallView) => void,
): HTMLElement {
	const rejectMessage = call.rejectMessageId ? byId.get(call.rejectMessageId) : undefined;
	const rejectText = (rejectMessage?.content as { text?: string } | undefined)?.text;
	const ringing = call.status === 'ringing' && call.from === me;
	const button = ringing
		? el('button', { type: 'button', className: 'danger small hang-up', text: 'Hang up' })
		: null;
	button?.addEventListener('click', () => hangUp(call));
	return el(
		'li',
		{
			className: `call-line ${call.status}`,
			'data-call-id': call.id,
			'data-status': call.status,
			'data-media': call.media,
		},
		[
			el('span', { text: `${call.media === 'video' ? '🎥' : '📞'} ` }),
			el('span', { className: 'call-text', text: describe(call, me, rejectText) }),
			el('span', { className: 'muted', text: ` · ${time(call.createdAt)}` }),
			button,
		],
	);
}
