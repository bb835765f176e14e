import type { INodeProperties } from 'n8n-workflow';

import type { EventEnvelope } from '../../src/client';
import type { ChosenOptions, TriggerContext } from '../shared/trigger';
import { splitList } from '../shared/values';

/**
 * The Chat Labels Changed filters: only changes of chosen labels (put on or taken off), and only puts or only
 * takes. They look at `chat.labels_changed` only; every other event passes. A change filtered out is
 * acknowledged and starts nothing, as the message filters do (filters.ts).
 */

/** Shown where they can apply: with Chat Labels Changed chosen, or all events. */
const ON_LABEL_CHANGES = { show: { '/events': ['chat.labels_changed', '*'] } };

export const labelOptions: INodeProperties[] = [
	{
		displayName: 'Label Names or IDs',
		name: 'labelIds',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getLabels' },
		default: [],
		displayOptions: ON_LABEL_CHANGES,
		description:
			'Only Chat Labels Changed events that put on or take off one of these labels (none chosen: every label). Other events are not filtered. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Label Change',
		name: 'labelChange',
		type: 'options',
		default: 'any',
		displayOptions: ON_LABEL_CHANGES,
		options: [
			{ name: 'Put On or Taken Off', value: 'any' },
			{ name: 'Put On a Chat', value: 'added' },
			{
				name: 'Taken Off a Chat',
				value: 'removed',
				description: 'Also when the label was deleted',
			},
		],
		description: 'Only Chat Labels Changed events of this kind. Other events are not filtered.',
	},
];

function idsOf(value: unknown): string[] {
	if (!Array.isArray(value)) return [];
	return value.flatMap((label: unknown) =>
		label !== null &&
		typeof label === 'object' &&
		typeof (label as { id?: unknown }).id === 'string'
			? [(label as { id: string }).id]
			: [],
	);
}

/** The trigger's `skip` for the label filters: why a label change does not start this workflow. */
export function skipUnwantedLabelChange(
	_context: TriggerContext,
	event: EventEnvelope,
	options: ChosenOptions,
): string | undefined {
	if (event.type !== 'chat.labels_changed') return undefined;
	const change = options.labelChange ?? 'any';
	const added = change === 'removed' ? [] : idsOf(event.data.added);
	const removed = change === 'added' ? [] : idsOf(event.data.removed);
	const changed = [...added, ...removed];
	if (changed.length === 0)
		return `no label ${change === 'added' ? 'put on' : 'taken off'} (Label Change)`;
	const wanted = splitList(options.labelIds ?? []);
	if (wanted.length > 0 && !changed.some((id) => wanted.includes(id)))
		return 'a label not among Labels';
	return undefined;
}
