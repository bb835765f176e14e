import { elementById, el, setError, show } from './dom';
import { callApi, messageOf, session } from './session';

/**
 * "Tap a reply": the recipient of a buttons or list message the instance sent taps one of its choices. The
 * form loads the message (`GET /api/v1/instances/{id}/messages/{messageId}`) and shows one button per choice;
 * a click sends the sandbox-only `POST /sandbox/instances/{id}/messages/{messageId}/tap`, which arrives as
 * `message.received` with `reply`.
 */

interface Choice {
	id: string;
	title: string;
}
interface SentMessage {
	type?: string;
	content?: { buttons?: Choice[]; sections?: Array<{ rows?: Choice[] }> };
	reply?: { type: string; id: string; title: string; toMessageId: string };
	id?: string;
	error?: { message?: string };
}

async function call(method: string, path: string, body?: unknown): Promise<SentMessage> {
	const response = await callApi(method, path, body);
	const answer = (await response.json().catch(() => null)) as SentMessage | null;
	if (!response.ok) throw new Error(answer?.error?.message ?? `HTTP ${response.status}`);
	return answer ?? {};
}

const choicesOf = (message: SentMessage): Choice[] =>
	message.type === 'list'
		? (message.content?.sections ?? []).flatMap((section) => section.rows ?? [])
		: (message.content?.buttons ?? []);

/** Loads so far: a load that a later one overtook (a pick, then the button) shows nothing. */
let loads = 0;

/** Loads the message and shows a button for each choice it offers. */
export async function showChoices(): Promise<void> {
	const load = ++loads;
	const error = elementById('tap-error');
	const list = elementById('tap-choices');
	setError(error, '');
	show(elementById('tap-result'), false);
	list.replaceChildren();
	if (!session.key) {
		setError(error, 'Sign in with a workspace key first: the message is read with it.');
		return;
	}
	const instanceId = encodeURIComponent(elementById<HTMLInputElement>('tap-instance').value.trim());
	const messageId = encodeURIComponent(elementById<HTMLInputElement>('tap-message').value.trim());
	try {
		const message = await call('GET', `/api/v1/instances/${instanceId}/messages/${messageId}`);
		if (load !== loads) return;
		const choices = choicesOf(message);
		if (choices.length === 0) {
			setError(
				error,
				`Message ${messageId} is a ${message.type ?? 'message'} without buttons or a list to tap.`,
			);
			return;
		}
		for (const choice of choices) {
			const button = el('button', {
				type: 'button',
				className: 'secondary',
				'data-id': choice.id,
				text: choice.title,
			});
			button.addEventListener('click', () => void tap(instanceId, messageId, choice.id));
			list.appendChild(button);
		}
	} catch (failure) {
		if (load === loads) setError(error, messageOf(failure));
	}
}

async function tap(instanceId: string, messageId: string, id: string): Promise<void> {
	const error = elementById('tap-error');
	const result = elementById('tap-result');
	setError(error, '');
	try {
		const received = await call(
			'POST',
			`/sandbox/instances/${instanceId}/messages/${messageId}/tap`,
			{ id },
		);
		result.textContent = `Received message ${received.id ?? ''}: reply ${received.reply?.type ?? ''} "${received.reply?.id ?? ''}" (${received.reply?.title ?? ''}) to ${received.reply?.toMessageId ?? ''}`;
		show(result, true);
	} catch (failure) {
		setError(error, messageOf(failure));
	}
}
