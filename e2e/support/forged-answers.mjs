// What an attacker who found a Send and Wait resume URL could send it (e2e/send-and-wait.test.mjs): a
// `message.answered` event, signed with a secret or not, POSTed as the sandbox would deliver it.
import { createHmac, randomUUID } from 'node:crypto';

/** A `message.answered` event for `registration`, from `manager`, with `answer`. */
export function answeredEvent(registration, manager, answer) {
	return JSON.stringify({
		id: `evt_${randomUUID().replaceAll('-', '').slice(0, 16)}`,
		type: 'message.answered',
		createdAt: new Date().toISOString(),
		data: {
			registrationId: registration.id,
			instanceId: registration.instanceId,
			chatId: registration.chatId,
			messageId: registration.messageId,
			answer,
			from: manager,
			answeredAt: new Date().toISOString(),
			answerMessageId: 'msg_forged',
		},
	});
}

/** The sandbox's signature header over `body` with `secret`. */
export function signed(secret, body) {
	const t = Math.floor(Date.now() / 1000);
	const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
	return `t=${t},v1=${v1}`;
}

/** POSTs `body` to `url` with the signature header, if any. */
export async function post(url, body, signature) {
	const response = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			...(signature ? { 'x-multichannel-signature': signature } : {}),
		},
		body,
		signal: AbortSignal.timeout(30_000),
	});
	return { status: response.status, text: await response.text() };
}
