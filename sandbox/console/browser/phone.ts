import { toE164 } from '../../../src/client/phone-number';
import { elementById, setError, show } from './dom';
import { callApi, messageOf, session } from './session';

/**
 * "Simulate a contact": a contact of a connected instance sends one of the sandbox's sample files (image,
 * voice note, PDF), through the sandbox-only `POST /sandbox/instances/{instanceId}/inbound/media` with the
 * signed-in key. It arrives as `message.received` with its `media`, as a phone's message would.
 */

interface ReceivedMessage {
	id: string;
	type?: string;
	media?: { fileName?: string | null; mimeType: string; size: number };
}

export async function sendSampleFile(): Promise<void> {
	const error = elementById('phone-error');
	const result = elementById('phone-result');
	const submit = elementById<HTMLButtonElement>('phone-submit');
	setError(error, '');
	show(result, false);
	if (!session.key) {
		setError(
			error,
			'Sign in with a workspace key first: the contact writes to one of its instances.',
		);
		return;
	}
	const instanceId = elementById<HTMLInputElement>('phone-instance').value.trim();
	const caption = elementById<HTMLInputElement>('phone-caption').value;
	// The nodes' rule: "+1 415 555 0177" is +14155550177 here too.
	const from = toE164(elementById<HTMLInputElement>('phone-from').value);
	if ('problem' in from) {
		setError(error, `From: ${from.problem}. ${from.hint}`);
		return;
	}
	const body = {
		from: from.number,
		sample: elementById<HTMLSelectElement>('phone-sample').value,
		...(caption ? { caption } : {}),
	};
	submit.disabled = true;
	try {
		const response = await callApi(
			'POST',
			`/sandbox/instances/${encodeURIComponent(instanceId)}/inbound/media`,
			body,
		);
		const answer = (await response.json().catch(() => null)) as
			| (ReceivedMessage & { error?: { message?: string } })
			| null;
		if (!response.ok) {
			setError(error, answer?.error?.message ?? `HTTP ${response.status}`);
			return;
		}
		const media = answer?.media;
		result.textContent = `Received message ${answer?.id ?? ''} (${answer?.type ?? 'media'}): ${media?.fileName ?? 'a file'}, ${media?.mimeType ?? ''}, ${media?.size ?? 0} bytes. Its file: GET /api/v1/messages/${answer?.id ?? ''}/media`;
		show(result, true);
	} catch (failure) {
		setError(error, messageOf(failure));
	} finally {
		submit.disabled = false;
	}
}
