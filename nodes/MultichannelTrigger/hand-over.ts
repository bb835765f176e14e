import type { INodeProperties } from 'n8n-workflow';

import { MESSAGING_EVENTS, type EventEnvelope } from '../../src/client';
import type { ChosenOptions, TriggerContext } from '../shared/trigger';

/**
 * The trigger's "Skip Chats a Person Is Handling" option (hand-over to a person): a message event of a chat handed
 * over says `handedOver: true` (a gathered burst too), and an automation that answers people (an AI agent) should
 * stay silent there. Not added, nothing is skipped, so that a workflow made before hand-over existed still starts
 * for every message; added, it is on by default.
 */

const MESSAGE_EVENTS = MESSAGING_EVENTS.filter((type) => type.startsWith('message.'));

export const handOverOption: INodeProperties = {
	displayName: 'Skip Chats a Person Is Handling',
	name: 'skipHandedOver',
	type: 'boolean',
	default: true,
	displayOptions: { show: { '/events': [...MESSAGE_EVENTS, '*'] } },
	description:
		'Whether messages of a chat handed over to a person (Chat → Hand Over to a Person, or the business answering from its own phone) start nothing until it is given back. Add it to a workflow that answers people, such as an AI agent, so that it does not talk over the person. Hand-over events themselves still start it.',
};

/** The trigger's `skip` for the option: why a message event of a handed-over chat does not start this workflow. */
export function skipHandedOverChat(
	_context: TriggerContext,
	event: EventEnvelope,
	options: ChosenOptions,
): string | undefined {
	if (options.skipHandedOver !== true || !event.type.startsWith('message.')) return undefined;
	return event.data.handedOver === true ? 'a chat a person is handling (handed over)' : undefined;
}
