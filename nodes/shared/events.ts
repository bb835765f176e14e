import type { INodePropertyOptions } from 'n8n-workflow';

import { NAMED_ONLY_EVENTS } from '../../src/client/events';
import { capitalised } from './words';

/** Words an event type spells in lower case that people write otherwise. */
const WRITTEN: Record<string, string> = { qr: 'QR', url: 'URL', id: 'ID' };

/** An event type as people read it: "message.received" → "Message received", "instance.qr_updated" → "Instance QR updated". */
export function eventLabel(event: string): string {
	const words = event.split(/[._]/).map((word) => WRITTEN[word] ?? word);
	return capitalised(words.join(' '));
}

/**
 * The options of an events multi-select: "All Events" first, then each event type of the surface. Events that come
 * often (presence) are not among All Events: a workflow gets them only when it chooses them.
 */
export function eventOptions(events: readonly string[]): INodePropertyOptions[] {
	const namedOnly = events.filter((event) => NAMED_ONLY_EVENTS.includes(event)).map(eventLabel);
	const one = namedOnly.length === 1;
	const leftOut =
		namedOnly.length > 0
			? `, except ${namedOnly.join(' and ')}, which ${one ? 'comes' : 'come'} often: choose ${one ? 'it' : 'them'} by name`
			: '';
	return [
		{
			name: 'All Events',
			value: '*',
			description: `Every event, including ones the service adds later${leftOut}`,
		},
		...events.map((event) => ({
			name: eventLabel(event),
			value: event,
			...(NAMED_ONLY_EVENTS.includes(event)
				? {
						description:
							'Comes often (several times a minute in a busy chat); not among All Events',
					}
				: {}),
			// The node creator's entry for the event; without it n8n writes "On " and the name in lower case.
			action: `On ${eventLabel(event).charAt(0).toLowerCase()}${eventLabel(event).slice(1)}`,
		})),
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
