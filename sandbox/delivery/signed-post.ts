import { request, type Dispatcher } from 'undici';

import {
	DELIVERY_ATTEMPT_HEADER,
	DELIVERY_ID_HEADER,
	EVENT_ID_HEADER,
	SIGNATURE_HEADER,
	signPayload,
} from '../../src/client/signature';

/** One signed POST of an event to a receiver, as SERVICE.md's deliveries are made (a ping to an old URL too). */
export interface SignedPost {
	url: string;
	/** The receiver's secret: the body is signed with it. */
	secret: string;
	body: string;
	eventId: string;
	attempt: number;
	deliveryId: string;
	dispatcher: Dispatcher;
	signal: AbortSignal;
}

/** Sends it; the answer's body is the caller's to read. Throws when no HTTP answer came, as undici does. */
export function postSigned(post: SignedPost): Promise<Dispatcher.ResponseData> {
	return request(post.url, {
		method: 'POST',
		dispatcher: post.dispatcher,
		signal: post.signal,
		headers: {
			'content-type': 'application/json',
			'user-agent': 'Multichannel-Sandbox-Webhooks/1.0',
			[SIGNATURE_HEADER]: signPayload(post.secret, post.body),
			[EVENT_ID_HEADER]: post.eventId,
			[DELIVERY_ATTEMPT_HEADER]: String(post.attempt),
			[DELIVERY_ID_HEADER]: post.deliveryId,
		},
		body: post.body,
	});
}
