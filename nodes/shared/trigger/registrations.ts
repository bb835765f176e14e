import type { TriggerContext } from './spec';

/** One webhook this node registered at the service. */
export interface Registration {
	webhookId: string;
	/** The signing secret: kept here only, never output or logged. */
	secret: string;
	events: string[];
	/**
	 * The service's base URL (normalised) when the webhook was registered, so that a delivery can reach the
	 * service without reading the credential. Absent from registrations made by versions before it.
	 */
	serviceUrl?: string;
	/** The service said it takes claims signed with `secret` (`signedClaims`): claims need no API key. */
	signedClaims?: boolean;
}

/**
 * The node's static data. Registrations are kept by webhook URL, because n8n gives a trigger two: the
 * production URL while the workflow is active, and the test URL while the editor listens for a test event.
 * Both can exist at once, and each lifecycle call only touches the registration of its own URL, so that
 * stopping a test never deletes the production webhook (and the other way round).
 */
interface TriggerState {
	webhooks?: Record<string, Registration>;
}

function state(context: TriggerContext): TriggerState {
	return context.getWorkflowStaticData('node') as TriggerState;
}

/** The registration of a webhook URL, if the node made one. */
export function registrationOf(context: TriggerContext, url: string): Registration | undefined {
	return state(context).webhooks?.[url];
}

/** Every registration of the node (production and test URL) that has a secret to check signatures with. */
export function signingRegistrations(context: TriggerContext): Registration[] {
	return Object.values(state(context).webhooks ?? {}).filter(
		(registration) => typeof registration.secret === 'string' && registration.secret !== '',
	);
}

/** Replaces the registration of a URL (or removes it), writing new objects so n8n sees the change. */
export function setRegistration(context: TriggerContext, url: string, registration?: Registration) {
	const data = state(context);
	const webhooks: Record<string, Registration> = { ...data.webhooks };
	if (registration) webhooks[url] = registration;
	else delete webhooks[url];
	if (Object.keys(webhooks).length > 0) {
		data.webhooks = webhooks;
	} else {
		delete data.webhooks;
	}
}
