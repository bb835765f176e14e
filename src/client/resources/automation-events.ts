import { z } from '../zod';

import { operation } from '../operation';
import {
	DateTimeInput,
	Id,
	JsonObjectInput,
	ListQuery,
	Metadata,
	named,
	page,
	Timestamp,
} from '../schemas';

/** Event names become the `automation.<name>` event type delivered to automation webhooks. */
export const AutomationEventName = z
	.string()
	.regex(
		/^[a-z][a-z0-9_.-]{0,99}$/,
		'must start with a lowercase letter and use a-z, 0-9, _, . or -',
	);

export const PublishEvent = named(
	'PublishEvent',
	z.strictObject({
		name: AutomationEventName,
		payload: JsonObjectInput,
		occurredAt: DateTimeInput.optional(),
	}),
);

export const AutomationEvent = named(
	'AutomationEvent',
	z.looseObject({
		id: Id,
		name: z.string().optional(),
		type: z.string().optional().describe('`automation.<name>`'),
		payload: Metadata.optional(),
		occurredAt: Timestamp.optional(),
		createdAt: Timestamp.optional(),
	}),
);
export type AutomationEvent = z.output<typeof AutomationEvent>;

export const automationEventOperations = {
	publish: operation({
		method: 'POST',
		path: '/automation/events',
		summary: 'Publish a named event into the workspace',
		scope: 'automation:write',
		body: PublishEvent,
		response: AutomationEvent,
		status: 202,
		creates: true,
	}),
	list: operation({
		method: 'GET',
		path: '/automation/events',
		summary: 'List published events, newest first',
		scope: 'automation:read',
		query: ListQuery.extend({
			name: AutomationEventName.optional().describe(
				'Only the events of this name, exactly (`order.paid`, not `automation.order.paid`)',
			),
		}),
		response: page(AutomationEvent),
		status: 200,
		paginated: true,
	}),
};
