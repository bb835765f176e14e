import type { IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';

import { createWorkspaceClient, n8nTransport, type WorkspaceClient } from '../../src/client';

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

type Context = IExecuteFunctions | ILoadOptionsFunctions;

/**
 * The workspace client of a node run. Requests go through `httpRequestWithAuthentication`, so the
 * credential's Bearer header and the instance's proxy, TLS and logging settings apply; the node only reads
 * the base URL (and the key, to keep it out of messages).
 */
export async function workspaceConnection(context: Context): Promise<Connection<WorkspaceClient>> {
	const credentials = await context.getCredentials<KeyCredential>(CREDENTIALS.workspace);
	const client = createWorkspaceClient(n8nTransport(context, CREDENTIALS.workspace), {
		baseUrl: credentials.baseUrl,
		onRetry: ({ operation, attempt, delayMs, reason }) =>
			context.logger.debug(
				`Multichannel: retrying ${operation} (attempt ${attempt}, ${reason}) in ${delayMs} ms`,
			),
	});
	return { client, secrets: typeof credentials.apiKey === 'string' ? [credentials.apiKey] : [] };
}
