import type {
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

/** The credential type names, as registered in package.json. */
export const CREDENTIAL_NAMES = {
	workspace: 'multichannelApi',
	shortLink: 'multichannelShortLinkApi',
	automation: 'multichannelAutomationApi',
} as const;

interface KeyCredentialValues {
	baseUrl: string;
	apiKey: string;
}

/** A typed client plus what error messages need: the values never to show, and the service's address. */
export interface ConnectedClient<C> {
	client: C;
	secrets: string[];
	/** The credential's base URL, normalised (no trailing slash or /api/v1); undefined when it is invalid. */
	serviceUrl?: string;
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
	return {
		keyKind,
		credentialName,
		async connect(context, options = {}) {
			const credentials = await context.getCredentials<KeyCredentialValues>(credentialName);
			const client = createClient(n8nTransport(context, credentialName), {
				...options,
				baseUrl: credentials.baseUrl,
				onRetry: (info) => {
					options.onRetry?.(info);
					const { operation, attempt, delayMs, reason } = info;
					context.logger.debug(
						`Multichannel: retrying ${operation} (attempt ${attempt}, ${reason}) in ${delayMs} ms`,
					);
				},
			});
			return {
				client,
				secrets: typeof credentials.apiKey === 'string' ? [credentials.apiKey] : [],
				serviceUrl: serviceUrlOf(credentials.baseUrl),
			};
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
