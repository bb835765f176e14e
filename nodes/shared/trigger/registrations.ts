import type { TriggerContext } from './spec';

/** Which of the node's two webhook URLs a registration is for: the production one, or the editor's test one. */
export type WebhookMode = 'production' | 'test';

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
	/** Absent from registrations made by versions before it: `modeOf` reads it from the URL then. */
	mode?: WebhookMode;
	/**
	 * The URLs this mode's webhook was registered at before this registration, newest first: a delivery never
	 * moves the webhook back to one of them (repairs.ts), since a process still given such a URL is older than
	 * the registration (a queue-mode rollout).
	 */
	formerUrls?: string[];
}

/** A registration with the URL it is kept under. */
export interface StoredRegistration {
	url: string;
	registration: Registration;
}

/**
 * The node's static data. Registrations are kept by webhook URL, because n8n gives a trigger two: the
 * production URL while the workflow is active, and the test URL while the editor listens for a test event.
 * Both can exist at once, and each lifecycle call only touches the registrations of its own mode, so that
 * stopping a test never deletes the production webhook (and the other way round). A URL the node no longer has
 * (n8n moved) is kept until the webhook is registered again: a delivery that moves the webhook writes nothing.
 */
interface TriggerState {
	webhooks?: Record<string, Registration>;
}

function state(context: TriggerContext): TriggerState {
	return context.getWorkflowStaticData('node') as TriggerState;
}

/** The mode of a URL n8n gave: its test URLs are under `/webhook-test/` (n8n's default endpoint name). */
export function modeOfUrl(url: string): WebhookMode {
	return url.includes('/webhook-test/') ? 'test' : 'production';
}

export function modeOf({ url, registration }: StoredRegistration): WebhookMode {
	return registration.mode ?? modeOfUrl(url);
}

/** The registration of a webhook URL, if the node made one. */
export function registrationOf(context: TriggerContext, url: string): Registration | undefined {
	return state(context).webhooks?.[url];
}

/**
 * The registration of a mode, kept under `url` or, after n8n moved, under the URL it was made at: a delivery
 * that moved the webhook at the service leaves static data as it was (n8n saves a delivery's copy of it over
 * the whole column, which would undo a registration made meanwhile).
 */
export function registrationFor(
	context: TriggerContext,
	url: string,
	mode: WebhookMode,
): StoredRegistration | undefined {
	const registration = registrationOf(context, url);
	if (registration) return { url, registration };
	return storedRegistrations(context).find((stored) => modeOf(stored) === mode);
}

/** Every registration the node keeps, production and test, each with its URL. */
export function storedRegistrations(context: TriggerContext): StoredRegistration[] {
	return Object.entries(state(context).webhooks ?? {}).map(([url, registration]) => ({
		url,
		registration,
	}));
}

/** Every registration of the node that has a secret to check signatures with. */
export function signingRegistrations(context: TriggerContext): StoredRegistration[] {
	return storedRegistrations(context).filter(
		({ registration }) => typeof registration.secret === 'string' && registration.secret !== '',
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
