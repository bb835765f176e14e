import { NodeOperationError, type INodeProperties } from 'n8n-workflow';

import { eventOptions } from '../events';
import { splitList } from '../values';
import type { ChosenOptions, Subscription, TriggerContext, TriggerSpec } from './spec';

/** The node parameters the triggers share, and how their subscription is read from them. */

/** The Events multi-select: "All Events" first, then each event type of the surface. */
export function eventsProperty(events: readonly string[], defaults: string[]): INodeProperties {
	return {
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: [...defaults],
		options: eventOptions(events),
		description: 'The events that start the workflow',
	};
}

/** The Options collection every trigger has. */
export const triggerOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Output Only Data',
			name: 'onlyData',
			type: 'boolean',
			default: false,
			description:
				'Whether to output only the event data, without the event ID, type and time around it',
		},
	],
};

/**
 * The subscription of a trigger with an Events multi-select of its surface's `names` and, optionally, a filter
 * parameter named after the contract's filter (`instanceIds`, `linkIds`): no event chosen means all, no ID
 * chosen means no filter. A name the surface does not have (from an expression) is refused before any call.
 */
export function chosenEvents<E extends string>(
	context: TriggerContext,
	names: readonly E[],
	filter?: 'instanceIds' | 'linkIds',
): Subscription<E> {
	const chosen = splitList(context.getNodeParameter('events', []));
	const known = (name: string): name is E | '*' =>
		name === '*' || (names as readonly string[]).includes(name);
	const unknown = chosen.filter((name) => !known(name));
	if (unknown.length > 0) {
		throw new NodeOperationError(
			context.getNode(),
			`Unknown event${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`,
			{ description: `The events of this trigger are ${names.join(', ')}` },
		);
	}
	const events = chosen.filter(known);
	const ids = filter ? splitList(context.getNodeParameter(filter, [])) : [];
	return {
		events: events.length > 0 ? events : ['*'],
		...(filter && ids.length > 0 ? { filters: { [filter]: ids } } : {}),
	};
}

/** The node's Options collection: read once by a call, then handed to whatever reads an option of it. */
export function chosenOptions(context: TriggerContext): ChosenOptions {
	return context.getNodeParameter('options', {}) as ChosenOptions;
}

/** What the webhook at the service must be: the subscription, with the gathering or batches the Options ask for. */
export function withGathering<C, E extends string>(
	spec: TriggerSpec<C, E>,
	subscription: Subscription<E>,
	options: ChosenOptions,
): Subscription<E> {
	const gather = spec.gathering?.(options);
	const batch = spec.batching?.(options);
	return { ...subscription, ...(gather ? { gather } : {}), ...(batch ? { batch } : {}) };
}
