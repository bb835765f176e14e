import type { IWebhookDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { unwrapEvent } from '../../../../../src/client';
import { ANSWER_EVENT, AnswerDelivery } from '../../../../../src/client/resources/answers';
import { refuse } from '../../../../shared/trigger/answers';
import { rawBodyOf } from '../../../../shared/trigger/delivery';
import {
	answeredOutput,
	answerSecret,
	MESSAGE_ID_PARAMETER,
	QUESTION_PARAMETER,
	type ResponseType,
} from './answer';

/**
 * Where a waiting "Send and Wait for Response" resumes: n8n's waiting webhook
 * (`/webhook-waiting/<execution id>/<node id>`), which n8n finds by `restartWebhook` and serves only for an
 * execution that is waiting. n8n first checks the URL's own signature (the node's operation is `sendAndWait`,
 * so n8n signs the URL it gave out). Here the body is checked too: signed by the service with this question's
 * secret (`answerSecret`), recent, a `message.answered` event, and about the question the URL names (its
 * reference; its message id in URLs given out before questions were registered first). Anything
 * else is answered 400/401 by the node, and the execution keeps waiting.
 */
export const answerWebhooks: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		// Without it n8n answers with the literal text "firstEntryJson".
		responseData: '',
		path: '={{ $nodeId }}',
		restartWebhook: true,
		isFullPath: true,
	},
];

export async function answerWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject();
	const delivery = unwrapEvent({
		payload: await rawBodyOf(request),
		headers: request.headers,
		secrets: [await answerSecret(this)],
	});
	if (!delivery.ok) return refuse(this, delivery);

	const { event } = delivery;
	const data = event.type === ANSWER_EVENT ? AnswerDelivery.safeParse(event.data) : undefined;
	if (!data?.success) {
		return refuse(this, {
			status: 400,
			code: 'not_an_answer',
			message: 'The body is not a message.answered event',
		});
	}
	const query = this.getQueryData() as Record<string, unknown>;
	const matches =
		QUESTION_PARAMETER in query
			? data.data.reference === query[QUESTION_PARAMETER]
			: data.data.messageId === query[MESSAGE_ID_PARAMETER];
	if (!matches) {
		return refuse(this, {
			status: 400,
			code: 'other_message',
			message: 'The answer is to another message than this one',
		});
	}

	const responseType = this.getNodeParameter('responseType', 'approval') as ResponseType;
	return {
		webhookResponse: { received: true },
		workflowData: [[{ json: answeredOutput(responseType, data.data) }]],
	};
}
