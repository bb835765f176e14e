import type { INodePropertyOptions } from 'n8n-workflow';

import { capitalised } from './words';

/** An event type as people read it: "message.received" → "Message received". */
export function eventLabel(event: string): string {
	return capitalised(event.replace(/[._]/g, ' '));
}

/** The options of an events multi-select: "All Events" first, then each event type of the surface. */
export function eventOptions(events: readonly string[]): INodePropertyOptions[] {
	return [
		{
			name: 'All Events',
			value: '*',
			description: 'Every event, including ones the service adds later',
		},
		...events.map((event) => ({ name: eventLabel(event), value: event })),
	];
}
