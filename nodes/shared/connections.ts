import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import {
	createAutomationClient,
	createShortLinkClient,
	createWorkspaceClient,
	n8nTransport,
	normaliseBaseUrl,
	type AutomationClient,
	type ClientOptions,
	type KeyKind,
	type ShortLinkClient,
	type Transport,
	type WorkspaceClient,
} from '../../src/client';
import { defaultCountryOf } from '../../src/client/phone-number';
import { notSending } from './checking';

/** The credential type names, as registered in package.json. */
export const CREDENTIAL_NAMES = {
	workspace: 'multichannelApi',
	shortLink: 'multichannelShortLinkApi',
	automation: 'multichannelAutomationApi',
} as const;

interface KeyCredentialValues {
	baseUrl: string;
	apiKey: string;
	/** The workspace credential's only; absent in credentials saved before it (and then none is set). */
	defaultCountry?: string;
}

/** A typed client plus what error messages need: the values never to show, and the service's address. */
export interface ConnectedClient<C> {
	client: C;
	secrets: string[];
	/** The credential's base URL, normalised (no trailing slash or /api/v1); undefined when it is invalid. */
	serviceUrl?: string;
	/** The credential's Default Country (an ISO code), in which national phone numbers are read; undefined when none. */
	defaultCountry?: string;
}

/** Node runs, list searches, and a trigger's webhook lifecycle (hook) and deliveries (webhook). */
export type ConnectionContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions;

/**
 * Client options a node may be built with, under the ones the connection sets (the base URL, and an `onRetry`
 * that calls the given one, then logs). n8n builds nodes without any, so the client's own defaults apply
 * (3 retries, 500 ms first backoff, n8n's `sleep`); tests pass shorter waits or a retry recorder through the
 * harness.
 */
export type ConnectionOptions = Partial<Omit<ClientOptions, 'baseUrl'>>;

/** How a node reaches the service with one kind of key. */
export interface ServiceConnection<C> {
	/** The kind of key its credential holds, for error messages. */
	keyKind: KeyKind;
	credentialName: string;
	/**
	 * Opens the client of the credential. Requests go through `httpRequestWithAuthentication`, so the
	 * credential's Bearer header and the instance's proxy, TLS and logging settings apply; the node only reads
	 * the base URL (and the key, to keep it out of messages).
	 */
	connect(context: ConnectionContext, options?: ConnectionOptions): Promise<ConnectedClient<C>>;
	/**
	 * A client at `baseUrl` that sends no key and reads no credential, through n8n's plain `httpRequest`: for
	 * requests that carry their own authentication (a claim signed with the webhook's secret, a signed file
	 * URL), where reading the credential would cost n8n an expression isolate per delivery.
	 */
	unauthenticated(context: ConnectionContext, baseUrl: string, options?: ConnectionOptions): C;
	/**
	 * A client that sends nothing (`nodes/shared/checking.ts`): each call validates its request, then throws
	 * `NotSent`. For checking every item before any is sent.
	 */
	checking(context: ConnectionContext, baseUrl: string, options?: ConnectionOptions): C;
}

function serviceUrlOf(baseUrl: unknown): string | undefined {
	try {
		return normaliseBaseUrl(String(baseUrl ?? ''));
	} catch {
		return undefined;
	}
}

function serviceConnection<C>(
	keyKind: KeyKind,
	credentialName: string,
	createClient: (transport: Transport, options: ClientOptions) => C,
): ServiceConnection<C> {
	const open = (
		context: ConnectionContext,
		transport: Transport,
		baseUrl: string,
		options: ConnectionOptions,
	) =>
		createClient(transport, {
			...options,
			baseUrl,
			onRetry: (info) => {
				options.onRetry?.(info);
				const { operation, attempt, delayMs, reason } = info;
				context.logger.debug(
					`Multichannel: retrying ${operation} (attempt ${attempt}, ${reason}) in ${delayMs} ms`,
				);
			},
		});
	return {
		keyKind,
		credentialName,
		async connect(context, options = {}) {
			// Read once, and handed to every request of the client (see n8nTransport).
			const credentials = await context.getCredentials<KeyCredentialValues>(credentialName);
			const stored = context.getNode().credentials?.[credentialName];
			const transport = n8nTransport(context, credentialName, {
				id: stored?.id ?? '',
				name: stored?.name ?? '',
				type: credentialName,
				data: credentials as unknown as ICredentialDataDecryptedObject,
			});
			return {
				client: open(context, transport, credentials.baseUrl, options),
				secrets: typeof credentials.apiKey === 'string' ? [credentials.apiKey] : [],
				serviceUrl: serviceUrlOf(credentials.baseUrl),
				defaultCountry: defaultCountryOf(credentials.defaultCountry),
			};
		},
		unauthenticated(context, baseUrl, options = {}) {
			return open(context, n8nTransport(context), baseUrl, options);
		},
		checking(context, baseUrl, options = {}) {
			return open(context, notSending, baseUrl, { ...options, maxRetries: 0 });
		},
	};
}

/** The workspace key: models and the messaging channel. */
export const workspaceConnection: ServiceConnection<WorkspaceClient> = serviceConnection(
	'workspace',
	CREDENTIAL_NAMES.workspace,
	createWorkspaceClient,
);

/** The short-link key: links and clicks. */
export const shortLinkConnection: ServiceConnection<ShortLinkClient> = serviceConnection(
	'shortLink',
	CREDENTIAL_NAMES.shortLink,
	createShortLinkClient,
);

/** The automation key: published events. */
export const automationConnection: ServiceConnection<AutomationClient> = serviceConnection(
	'automation',
	CREDENTIAL_NAMES.automation,
	createAutomationClient,
);
