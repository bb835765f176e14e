import { elementById, el } from './dom';
import { callApi, session } from './session';

/**
 * What the "Simulate a contact" and "Tap a reply" forms offer to pick from, so that nobody copies `inst_…` and
 * `msg_…` IDs by hand: the workspace's instances (once signed in), and the buttons and list messages the chosen
 * instance sent recently. Both are suggestions of a datalist: an ID typed or pasted works as before.
 */

interface Listed<T> {
	data?: T[];
}
interface InstanceView {
	id: string;
	name?: string;
	status?: string;
}
interface MessageView {
	id: string;
	type?: string;
	direction?: string;
	to?: string | null;
	content?: { text?: string };
}

const RECENT_MESSAGES = 50;

/** A list the signed-in key may read; none when it may not, or when anything fails: these are suggestions only. */
async function read<T>(path: string): Promise<T[]> {
	if (!session.key) return [];
	try {
		const response = await callApi('GET', path);
		if (!response.ok) return [];
		return ((await response.json()) as Listed<T>).data ?? [];
	} catch {
		return [];
	}
}

function fill(listId: string, options: Array<{ value: string; label: string }>): void {
	elementById(listId).replaceChildren(
		...options.map(({ value, label }) => {
			const option = el('option', { value });
			option.label = label;
			option.textContent = label;
			return option;
		}),
	);
}

/** The workspace's instances, named, as the suggestions of both forms' instance fields. */
export async function offerInstances(): Promise<void> {
	const instances = await read<InstanceView>('/api/v1/instances?limit=100');
	fill(
		'instance-options',
		instances.map((instance) => ({
			value: instance.id,
			label: `${instance.name ?? instance.id} (${instance.status ?? 'unknown'})`,
		})),
	);
}

/** The buttons and list messages the chosen instance sent lately, newest first, as the message field's suggestions. */
export async function offerTappableMessages(): Promise<void> {
	const instanceId = elementById<HTMLInputElement>('tap-instance').value.trim();
	if (!instanceId) {
		fill('tap-message-options', []);
		return;
	}
	const messages = await read<MessageView>(
		`/api/v1/instances/${encodeURIComponent(instanceId)}/messages?limit=${RECENT_MESSAGES}`,
	);
	fill(
		'tap-message-options',
		messages
			.filter(
				(message) =>
					message.direction === 'outbound' &&
					(message.type === 'buttons' || message.type === 'list'),
			)
			.map((message) => ({
				value: message.id,
				label: `${message.type} to ${message.to ?? '?'}: ${(message.content?.text ?? '').slice(0, 60)}`,
			})),
	);
}
