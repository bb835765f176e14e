/** The typed client for the Multichannel service: one import for nodes, the sandbox, tests and tools. */
export { api, KEY_KIND_TITLES, type KeyKind } from './api';
export {
	createClient,
	HttpClient,
	normaliseBaseUrl,
	type CallOptions,
	type Client,
	type ClientOptions,
	type OperationInput,
	type OperationOutput,
	type RetryInfo,
} from './client';
export * from './chat-ids';
export * from './errors';
export * from './events';
export type { WebhookEndpoints } from './resources/webhooks';
export * from './resources/batches';
export * from './resources/gathered-messages';
export { LIST_SEPARATORS, listEntries } from './lists';
export { fileFromResponse, fileNameOf, type DownloadedFile } from './download';
export { encodeMultipart, type UploadFile } from './multipart';
export { API_PREFIX, operation, type HttpMethod, type Operation, type Scope } from './operation';
export { redactSecrets } from './redact';
export * from './signature';
export {
	normaliseHeaders,
	parseBody,
	type HttpRequest,
	type HttpResponse,
	type Transport,
} from './transport';
export { n8nTransport, type N8nContext } from './n8n-transport';

import { api } from './api';
import { createClient, type ClientOptions } from './client';
import type { Transport } from './transport';

export type WorkspaceClient = ReturnType<typeof createWorkspaceClient>;
export type ShortLinkClient = ReturnType<typeof createShortLinkClient>;
export type AutomationClient = ReturnType<typeof createAutomationClient>;

export const createWorkspaceClient = (transport: Transport, options: ClientOptions) =>
	createClient(api.workspace, transport, options);
export const createShortLinkClient = (transport: Transport, options: ClientOptions) =>
	createClient(api.shortLink, transport, options);
export const createAutomationClient = (transport: Transport, options: ClientOptions) =>
	createClient(api.automation, transport, options);
