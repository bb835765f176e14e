import type { MessageView } from '../views';
import { el } from './dom';

/**
 * What the contact does to a message in the phone besides quoting it (issue 48): put a reaction on any message and
 * take it off, edit and delete their own. Each goes through a sandbox-only endpoint and arrives as its event
 * (`message.reaction`, `message.edited`, `message.deleted`); a deleted message shows as such, with no actions.
 */

export interface ActActions {
	/** The contact puts this emoji on the message; an empty one takes theirs off. */
	react(message: MessageView, emoji: string): void;
	/** The contact starts editing their own text message. */
	edit(message: MessageView): void;
	/** The contact deletes their own message for everyone. */
	remove(message: MessageView): void;
}

/** The emoji the phone puts on with one click. */
export const QUICK_REACTION = '👍';

export const DELETED_TEXT = 'This message was deleted';

/** A deleted message's body, in place of its content. */
export function deletedBody(): HTMLElement {
	return el('div', { className: 'text deleted muted', text: DELETED_TEXT });
}

function action(label: string, title: string, run: () => void): HTMLElement {
	const button = el('button', { type: 'button', className: 'link act', text: label, title });
	button.addEventListener('click', run);
	return button;
}

/**
 * The act buttons of a bubble: React (or Take Off the contact's reaction) on any message sent, Edit on the contact's
 * own text, Delete on the contact's own message. None on a deleted message.
 */
export function actButtons(
	message: MessageView,
	mine: boolean,
	myReaction: string | undefined,
	actions: ActActions,
): HTMLElement[] {
	if (message.deletedAt) return [];
	const buttons = [
		myReaction
			? action(`Take off ${myReaction}`, 'Take your reaction off', () => actions.react(message, ''))
			: action(`React ${QUICK_REACTION}`, 'React to this message', () =>
					actions.react(message, QUICK_REACTION),
				),
	];
	if (mine && message.type === 'text') {
		buttons.push(action('Edit', 'Edit your message', () => actions.edit(message)));
	}
	if (mine) {
		buttons.push(action('Delete', 'Delete for everyone', () => actions.remove(message)));
	}
	return buttons;
}
