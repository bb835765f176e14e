import type {
	IDataObject,
	IHookFunctions,
	INodeExecutionData,
	IWebhookFunctions,
} from 'n8n-workflow';
import type { z } from 'zod/v4';

import type {
	BatchOptions,
	EventEnvelope,
	EventSubject,
	GatherOptions,
	Scope,
	WebhookEndpoints,
} from '../../../src/client';
import type { ConnectedClient, ServiceConnection } from '../connections';

/** What a trigger node says about itself: the one implementation behind the three triggers does the rest. */

export type TriggerContext = IHookFunctions | IWebhookFunctions;

/**
 * The node's Options collection (its `options` parameter), read once by each call that needs it (a delivery, a
 * registration) and handed to what reads any of its options.
 */
export type ChosenOptions = IDataObject;

/** Server-side filters of a webhook registration (the contract's `filters`). */
export interface WebhookFilters {
	instanceIds?: string[];
	linkIds?: string[];
}

/** What a trigger asks the service for, read from the node's parameters. */
export interface Subscription<E extends string = string> {
	/** Event types, `*` for all of the surface, `automation.*` for every automation event. */
	events: Array<E | '*'>;
	filters?: WebhookFilters;
	/** Messaging only: gather a person's messages of one chat into one event (the contract's `gather`). */
	gather?: GatherOptions;
	/** Short links and automation only: deliver the events in batches (the contract's `batch`). */
	batch?: BatchOptions;
}

/** `C` is the client of the trigger's key, `E` the event names of its surface. */
export interface TriggerSpec<C, E extends string> {
	/** The key the trigger's credential holds, and how to open its client. */
	connection: ServiceConnection<C>;
	webhooks(client: C): WebhookEndpoints<E>;
	scopes: { read: Scope; write: Scope };
	/**
	 * The events and filters the node's parameters ask for; throws `NodeOperationError` on bad input. Every
	 * delivery checks its event against them.
	 */
	subscription(context: TriggerContext): Subscription<E>;
	/**
	 * Messaging only: the gathering the Options ask for (the contract's `gather`), or undefined. Read where the
	 * webhook is registered or set back (repairs.ts), never for a delivery that changes nothing at the service.
	 */
	gathering?(options: ChosenOptions): GatherOptions | undefined;
	/** Short links and automation only: the batches the Options ask for (the contract's `batch`), read likewise. */
	batching?(options: ChosenOptions): BatchOptions | undefined;
	/** What an event is about, where the filters look (its instance, its link); the service matches the same. */
	subject?(event: EventEnvelope): EventSubject;
	/**
	 * Refuses, with a NodeOperationError naming the option, Options that cannot work (a text pattern that is not a
	 * regular expression): run when the trigger is activated, so that the mistake shows before any delivery.
	 */
	check?(context: TriggerContext, options: ChosenOptions): void;
	/**
	 * Why an event the node subscribed to is still not run (clicks by bots, a message the filters leave out); or
	 * undefined. It may throw what `check` throws.
	 */
	skip?(
		context: IWebhookFunctions,
		event: EventEnvelope,
		options: ChosenOptions,
	): string | undefined;
	/**
	 * What the output shows at its top level, beside the event, because a workflow mostly needs it (who
	 * clicked a tracked link, say): `of` picks it from an event (nothing when the event has none of it),
	 * `output` describes it for the trigger's output schema.
	 */
	highlights?: { output: z.ZodObject; of(event: EventEnvelope): IDataObject };
	/**
	 * Adds to the event's item what it carries beside its JSON (a received message's file, as binary data),
	 * after the event is claimed and before the workflow starts, through the delivery's access to the service
	 * (the claim's, so the credential is read once at most). It must not throw: an event is never dropped for
	 * what could not be added, its item says why instead.
	 */
	attach?(
		context: IWebhookFunctions,
		event: EventEnvelope,
		item: INodeExecutionData,
		access: ServiceAccess<C>,
		options: ChosenOptions,
	): Promise<void>;
	/** What `attach` adds to the output, for the trigger's output schema. */
	attachedOutput?: AttachedOutput;
}

/**
 * What a trigger's `attach` adds to the item, as its output schema shows it: `fields` at the top level, and
 * `data`, by event type, the payloads it adds to (replacing the event's own in the schema).
 */
export interface AttachedOutput {
	fields: z.ZodObject;
	data: Record<string, z.ZodType>;
}

/**
 * How a delivery reaches the service: without a key where its registration allows it (through the base URL
 * kept with it), with the credential otherwise, read once and only when first needed. Reading a credential in
 * a webhook call costs n8n an expression isolate (docs/design.md), so the usual delivery reads none. Every call
 * of the delivery ends by its `deadline`.
 */
export interface ServiceAccess<C> {
	/** The base URL kept with the registration; none for older registrations. */
	serviceUrl?: string;
	/** A client that sends no key, at that base URL. */
	unauthenticated?: C;
	/** The credential's client; the credential is read on the first call only. */
	keyed(): Promise<ConnectedClient<C>>;
	/**
	 * When every call of this delivery must be over (`CallOptions.deadline`): the service waits 10 s for the
	 * answer, and the claim and the files of `attach` share what the delivery has.
	 */
	deadline: number;
}
