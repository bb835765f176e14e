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
	type AutomationClient,
	type ClientOptions,
	type ShortLinkClient,
	type Transport,
	type WorkspaceClient,
} from '../../src/client';

/** The credential names, as registered in package.json. */
export const CREDENTIALS = {
	workspace: 'multichannelApi',
	shortLink: 'multichannelShortLinkApi',
	automation: 'multichannelAutomationApi',
} as const;

interface KeyCredential {
	baseUrl: string;
	apiKey: string;
}

/** A typed client plus the values that must never appear in an error message or an output. */
export interface Connection<C> {
	client: C;
	secrets: string[];
}

/** Node runs, list searches, and a trigger's webhook lifecycle (hook) and deliveries (webhook). */
type Context = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;

export type ConnectionFactory<C> = (context: Context) => Promise<Connection<C>>;

/**
 * Client options every connection starts from, under the ones `connectionFor` sets (the base URL, and an
 * `onRetry` that calls this one's, then logs). Empty in n8n, so the client's own defaults apply: 3 retries,
 * 500 ms first backoff, n8n's `sleep`. Tests set shorter waits, more retries or an `onRetry` that records
 * each retry here, and empty it again after; nothing in the package writes to it.
 */
export const connectionDefaults: Partial<ClientOptions> = {};

/**
 * How a node opens the client of its credential. Requests go through `httpRequestWithAuthentication`, so the
 * credential's Bearer header and the instance's proxy, TLS and logging settings apply; the node only reads
 * the base URL (and the key, to keep it out of messages).
 */
export function connectionFor<C>(
	credentialName: string,
	createClient: (transport: Transport, options: ClientOptions) => C,
): ConnectionFactory<C> {
	return async (context) => {
		const credentials = await context.getCredentials<KeyCredential>(credentialName);
		const client = createClient(n8nTransport(context, credentialName), {
			...connectionDefaults,
			baseUrl: credentials.baseUrl,
			onRetry: (info) => {
				connectionDefaults.onRetry?.(info);
				const { operation, attempt, delayMs, reason } = info;
				context.logger.debug(
					`Multichannel: retrying ${operation} (attempt ${attempt}, ${reason}) in ${delayMs} ms`,
				);
			},
		});
		return { client, secrets: typeof credentials.apiKey === 'string' ? [credentials.apiKey] : [] };
	};
}

/** The workspace client (models, messaging channel) of a node run. */
export const workspaceConnection: ConnectionFactory<WorkspaceClient> = connectionFor(
	CREDENTIALS.workspace,
	createWorkspaceClient,
);

/** The short-link client (links, clicks) of a node run. */
export const shortLinkConnection: ConnectionFactory<ShortLinkClient> = connectionFor(
	CREDENTIALS.shortLink,
	createShortLinkClient,
);

/** The automation client (published events) of a node run. */
export const automationConnection: ConnectionFactory<AutomationClient> = connectionFor(
	CREDENTIALS.automation,
	createAutomationClient,
);
