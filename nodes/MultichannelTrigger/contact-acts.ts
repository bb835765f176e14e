import type { INodeProperties } from 'n8n-workflow';

import type { EventEnvelope } from '../../src/client';
import type { ChosenOptions, TriggerContext } from '../shared/trigger';
import { splitList } from '../shared/values';

/**
 * Filters of the contact's acts (docs/contact-events.md), each shown with its events chosen (or all events): the
 * reactions put on or taken off and their emojis, edits and deletions by the contact or by the business, and
 * which presence states. Other events pass. An event filtered out is acknowledged and starts nothing, as the
 * message filters do (filters.ts).
 */

/** Presence is never among All Events (`*`): it is offered with Presence Updated chosen only. */
const ON_PRESENCE = { show: { '/events': ['presence.updated'] } };
const ON_REACTIONS = { show: { '/events': ['message.reaction', '*'] } };
const CHANGES = ['message.edited', 'message.deleted'];

export const contactActOptions: INodeProperties[] = [
	{
		displayName: 'Reaction Change',
		name: 'reactionChange',
		type: 'options',
		default: 'any',
		displayOptions: ON_REACTIONS,
		options: [
			{ name: 'Put On or Taken Off', value: 'any' },
			{ name: 'Put On a Message', value: 'added' },
			{ name: 'Taken Off a Message', value: 'removed' },
		],
		description: 'Only Message Reaction events of this kind. Other events are not filtered.',
	},
	{
		displayName: 'Reaction Emojis',
		name: 'reactionEmojis',
		type: 'string',
		default: '',
		placeholder: '👍, ❤️',
		displayOptions: ON_REACTIONS,
		description:
			'Only reactions with one of these emojis, separated by commas (empty: every emoji). Other events are not filtered.',
	},
	{
		displayName: 'Edited or Deleted By',
		name: 'changedBy',
		type: 'options',
		default: 'any',
		displayOptions: { show: { '/events': [...CHANGES, '*'] } },
		options: [
			{ name: 'The Contact or the Business', value: 'any' },
			{ name: 'The Contact', value: 'contact', description: 'On their phone' },
			{ name: 'The Business', value: 'business', description: 'Through the API (a workflow)' },
		],
		description:
			'Only Message Edited and Message Deleted events by this side. Other events are not filtered.',
	},
	{
		displayName: 'Presence States',
		name: 'presenceStates',
		type: 'multiOptions',
		default: [],
		displayOptions: ON_PRESENCE,
		options: [
			{ name: 'Typing', value: 'typing' },
			{ name: 'Recording Audio', value: 'recording' },
			{ name: 'Online', value: 'online' },
			{ name: 'Offline', value: 'offline' },
		],
		description:
			'Only Presence Updated events of these states (none chosen: every state). Presence comes often: several times a minute in a busy chat.',
	},
];

/** The trigger's `skip` for these filters: why a contact's act does not start this workflow. */
export function skipUnwantedContactAct(
	_context: TriggerContext,
	event: EventEnvelope,
	options: ChosenOptions,
): string | undefined {
	const { data } = event;
	if (event.type === 'message.reaction') {
		const change = options.reactionChange ?? 'any';
		if (change !== 'any' && data.action !== change)
			return `a reaction ${data.action === 'added' ? 'put on' : 'taken off'} (Reaction Change)`;
		const emojis = splitList(options.reactionEmojis);
		if (emojis.length > 0 && !emojis.includes(String(data.emoji)))
			return 'an emoji not among Reaction Emojis';
		return undefined;
	}
	if (CHANGES.includes(event.type)) {
		const by = options.changedBy ?? 'any';
		return by !== 'any' && data.by !== by
			? `changed by the ${String(data.by)} (Edited or Deleted By)`
			: undefined;
	}
	if (event.type === 'presence.updated') {
		const states = splitList(options.presenceStates);
		return states.length > 0 && !states.includes(String(data.state))
			? `presence ${String(data.state)}, not among Presence States`
			: undefined;
	}
	return undefined;
}
