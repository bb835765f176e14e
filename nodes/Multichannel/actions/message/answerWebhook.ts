import type { IWebhookDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import {
	EventEnvelope,
	SIGNATURE_HEADER,
	verifySignature,
	type SignatureCheck,
} from '../../../../src/client';
import { ANSWER_EVENT, AnswerDelivery } from '../../../../src/client/resources/answers';
import { FAILURE_TEXT, rawBodyOf, refuse } from '../../../shared/trigger/delivery';
import { answeredOutput, answerSecret, MESSAGE_ID_PARAMETER, type ResponseType } from './answer';

/**
 * Where a waiting "Send and Wait for Response" resumes: n8n's waiting webhook
 * (`/webhook-waiting/<execution id>/<node id>`), which n8n finds by `restartWebhook` and serves only for an
 * execution that is waiting. n8n first checks the URL's own signature (the node's operation is `sendAndWait`,
 * so n8n signs the URL it gave out). Here the body is checked too: signed by the service with this question's
 * secret (`answerSecret`), recent, a `message.answered` event, and about the message the URL names. Anything
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

function refusal(check: SignatureCheck & { valid: false }): string {
	return `The answer was refused: it came with ${FAILURE_TEXT[check.reason]}`;
}

export async function answerWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject();
	const payload = await rawBodyOf(request);
	const check = verifySignature({
		payload,
		header: request.headers[SIGNATURE_HEADER],
		secrets: await answerSecret(this),
	});
	if (!check.valid) return refuse(this, 401, 'invalid_signature', refusal(check));

	let event: EventEnvelope | undefined;
	try {
		event = EventEnvelope.parse(JSON.parse(payload.toString('utf8')));
	} catch {
		event = undefined;
	}
	const data = event?.type === ANSWER_EVENT ? AnswerDelivery.safeParse(event.data) : undefined;
	if (!data?.success) {
		return refuse(this, 400, 'not_an_answer', 'The body is not a message.answered event');
	}
	const expected = (this.getQueryData() as Record<string, unknown>)[MESSAGE_ID_PARAMETER];
	if (data.data.messageId !== expected) {
		return refuse(this, 400, 'other_message', 'The answer is to another message than this one');
	}

	const responseType = this.getNodeParameter('responseType', 'approval') as ResponseType;
	return {
		webhookResponse: { received: true },
		workflowData: [[{ json: answeredOutput(responseType, data.data) }]],
	};
}
