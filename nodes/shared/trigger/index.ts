import type { IHookFunctions, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import type { z } from 'zod/v4';

import { receive } from './delivery';
import { webhookLifecycle } from './lifecycle';
import type { TriggerSpec } from './spec';

/**
 * The one implementation behind the three trigger nodes (messaging, short links, automation): the webhook
 * lifecycle at the service (lifecycle.ts) and the handling of each delivery (delivery.ts), with the node
 * parameters they share (parameters.ts). A trigger node only says which key it uses, which events and filters
 * its parameters ask for, and which events it skips (its `TriggerSpec`).
 */

export { chosenEvents, eventsProperty, triggerOptions } from './parameters';
export type { Subscription, TriggerSpec, WebhookEndpoints, WebhookFilters } from './spec';

export interface TriggerImplementation {
	checkExists(context: IHookFunctions): Promise<boolean>;
	create(context: IHookFunctions): Promise<boolean>;
	delete(context: IHookFunctions): Promise<boolean>;
	webhook(context: IWebhookFunctions): Promise<IWebhookResponseData>;
	/** The fields the trigger lifts to the top level of its output, for its output schema. */
	highlightsOutput?: z.ZodObject;
}

export function webhookTrigger<C>(spec: TriggerSpec<C>): TriggerImplementation {
	return {
		...webhookLifecycle(spec),
		webhook: async (context) => await receive(context, spec),
		highlightsOutput: spec.highlights?.output,
	};
}
