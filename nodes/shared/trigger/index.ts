import type {
	IHookFunctions,
	IWebhookFunctions,
	IWebhookResponseData,
	WebhookSetupMethodNames,
} from 'n8n-workflow';
import type { z } from 'zod/v4';

import { receive } from './delivery';
import { webhookLifecycle } from './lifecycle';
import type { AttachedOutput, TriggerSpec } from './spec';

/**
 * The one implementation behind the three trigger nodes (messaging, short links, automation): the webhook
 * lifecycle at the service (lifecycle.ts, owner.ts) and the handling of each delivery (delivery.ts: its access
 * to the service in access.ts, its claim in claim.ts, its answers in answers.ts, what it repairs at the service
 * in repairs.ts), with the node parameters they share (parameters.ts), the registrations kept in static data
 * (registrations.ts) and the errors of calls to the service (failure.ts). A trigger node only says which key it
 * uses, which events and filters its parameters ask for, and which events it skips (its `TriggerSpec`, spec.ts,
 * which imports nothing of this folder).
 */

export { chosenItemsProperty, triggerBasics } from './description';
export { batchingTriggerOptions, chosenBatching } from './batch';
export { chosenEvents, eventsProperty, triggerOptions } from './parameters';
export type {
	AttachedOutput,
	ChosenOptions,
	ServiceAccess,
	Subscription,
	TriggerContext,
	TriggerSpec,
	WebhookFilters,
} from './spec';

/** What a trigger node assigns: its `webhookMethods` and `webhook`, as n8n calls them. */
export interface TriggerImplementation {
	webhookMethods: {
		default: Record<WebhookSetupMethodNames, (this: IHookFunctions) => Promise<boolean>>;
	};
	webhook: (this: IWebhookFunctions) => Promise<IWebhookResponseData>;
	/** The fields the trigger lifts to the top level of its output, for its output schema. */
	highlightsOutput?: z.ZodObject;
	/** What its `attach` adds to the output, for its output schema. */
	attachedOutput?: AttachedOutput;
}

export function webhookTrigger<C, E extends string>(
	spec: TriggerSpec<C, E>,
): TriggerImplementation {
	const lifecycle = webhookLifecycle(spec);
	return {
		webhookMethods: {
			default: {
				async checkExists() {
					return await lifecycle.checkExists(this);
				},
				async create() {
					return await lifecycle.create(this);
				},
				async delete() {
					return await lifecycle.delete(this);
				},
			},
		},
		async webhook() {
			return await receive(this, spec);
		},
		highlightsOutput: spec.highlights?.output,
		attachedOutput: spec.attachedOutput,
	};
}
