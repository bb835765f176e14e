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

/**
 * A trigger's subtitle on the canvas: its chosen events as the Events list names them ("Message received"),
 * looked up in a table the expression carries; a value the table does not know is shown as it is.
 */
export function eventsSubtitle(events: readonly string[]): string {
	const names = Object.fromEntries(eventOptions(events).map(({ name, value }) => [value, name]));
	return `={{ [].concat($parameter["events"]).map((event) => (${JSON.stringify(names)})[event] ?? event).join(", ") }}`;
}
