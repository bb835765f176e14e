import type {
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { ACK_HEADER, DELIVERY_ID_HEADER } from '../../../src/client';

/**
 * How a delivery is answered. Taken (run, or deliberately not run): a 200 that acknowledges the delivery, with
 * the request's delivery id in the `X-Multichannel-Ack` header and as `acknowledged` in the JSON body; the
 * service counts nothing else as delivered (the registration asks for it), so a bare 2xx from a proxy or from
 * an n8n still starting is retried. Refused: an error status the node writes itself, never acknowledged, so the
 * service delivers it again (503) or gives up on it (400, 401).
 */

/** What it uses of n8n's response (an Express response, which is a Node.js `ServerResponse`). */
interface DeliveryResponse {
	headersSent?: boolean;
	setHeader(name: string, value: string): unknown;
	removeHeader(name: string): unknown;
	writeHead(status: number, headers: Record<string, string>): unknown;
	end(body: string): unknown;
}

/** What the service's delivery ids look like; anything else is not echoed into a header. */
const DELIVERY_ID = /^[\x21-\x7e]{1,200}$/;

/** The request's delivery id (`X-Multichannel-Delivery-Id`), or undefined when it has none to acknowledge. */
export function deliveryIdOf(context: IWebhookFunctions): string | undefined {
	const header = context.getHeaderData()[DELIVERY_ID_HEADER];
	return typeof header === 'string' && DELIVERY_ID.test(header) ? header : undefined;
}

/** The acknowledgement: the header set on n8n's response, and the body that carries it too. */
function acknowledgement(
	context: IWebhookFunctions,
	deliveryId: string | undefined,
	body: IDataObject,
): IDataObject {
	if (!deliveryId) return { received: true, ...body };
	const response = context.getResponseObject() as unknown as DeliveryResponse;
	// n8n sends the headers set on its response with the answer it writes from `webhookResponse`.
	if (!response.headersSent) response.setHeader(ACK_HEADER, deliveryId);
	return { received: true, ...body, acknowledged: deliveryId };
}

/** Taken without running: a duplicate, an event the node did not choose, a ping (with what it answers). */
export function notRun(
	context: IWebhookFunctions,
	deliveryId: string | undefined,
	reason: string,
	answer: IDataObject = {},
): IWebhookResponseData {
	return {
		webhookResponse: acknowledgement(context, deliveryId, { executed: false, reason, ...answer }),
	};
}

/**
 * Taken and run: n8n answers a trigger whose `responseMode` is `onReceived` with `webhookResponse` (its webhook
 * description has `responseData: ''`; n8n's default would answer the text "firstEntryJson"), then starts the
 * execution.
 */
export function run(
	context: IWebhookFunctions,
	deliveryId: string | undefined,
	items: INodeExecutionData[],
): IWebhookResponseData {
	return {
		workflowData: [items],
		webhookResponse: acknowledgement(context, deliveryId, { executed: true }),
	};
}

/** Answers the request itself, unacknowledged, and tells n8n not to answer nor run anything. */
export function refuse(
	context: IWebhookFunctions,
	{ status, code, message }: { status: 400 | 401 | 503; code: string; message: string },
): IWebhookResponseData {
	const response = context.getResponseObject() as unknown as DeliveryResponse;
	if (!response.headersSent) {
		response.removeHeader(ACK_HEADER);
		response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
		response.end(JSON.stringify({ error: { code, message } }));
	}
	return { noWebhookResponse: true };
}
