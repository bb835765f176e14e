import { elementById } from './dom';
import { fillOptions, readList } from './pickers';

/**
 * Picking the chat of the console's phone: the workspace's instances, the groups of the one picked (a
 * contact's 1:1 chat first), and as the number's suggestions the instance's contacts, or the group's members;
 * never the instance's own number, which the phone cannot write as (it is the other end of the chat).
 */

interface InstanceView {
	id: string;
	name?: string;
	status?: string;
	phoneNumber?: string | null;
}
interface GroupView {
	id: string;
	subject?: string;
	participants?: Array<{ phoneNumber: string }>;
}
interface ContactView {
	phoneNumber?: string | null;
	username?: string | null;
	name?: string | null;
}

const ONE_TO_ONE = { value: '', label: 'A contact (1:1 chat)' };
let instances: InstanceView[] = [];
let groups: GroupView[] = [];

/** The workspace's instances: the phone's choice, and the reference's suggestions for `instanceId`. */
export async function offerInstances(): Promise<void> {
	instances = await readList<InstanceView>('/api/v1/instances?limit=100');
	const options = instances.map((instance) => ({
		value: instance.id,
		label: `${instance.name ?? instance.id} (${instance.status ?? 'unknown'})`,
	}));
	fillOptions(elementById('instance-options'), options);
	const select = elementById<HTMLSelectElement>('chat-instance');
	const before = select.value;
	fillOptions(select, options, {
		value: '',
		label: options.length ? 'Pick an instance' : 'No instances yet: create and connect one',
	});
	if (!select.value && options.length === 1) select.value = options[0].value;
	if (select.value !== before) await offerChats();
}

/** The picked instance's groups, and the numbers to suggest. */
export async function offerChats(): Promise<void> {
	const instanceId = elementById<HTMLSelectElement>('chat-instance').value;
	groups = instanceId
		? await readList<GroupView>(
				`/api/v1/instances/${encodeURIComponent(instanceId)}/groups?limit=100`,
			)
		: [];
	fillOptions(
		elementById('chat-group'),
		groups.map((group) => ({ value: group.id, label: `Group: ${group.subject ?? group.id}` })),
		ONE_TO_ONE,
	);
	await offerNumbers();
}

/** Which call of offerNumbers is the latest: an earlier one answered later must not overwrite its list. */
let offering = 0;

/** A group's members, or the instance's contacts, as the number's suggestions. */
export async function offerNumbers(): Promise<void> {
	const call = ++offering;
	const instanceId = elementById<HTMLSelectElement>('chat-instance').value;
	const groupId = elementById<HTMLSelectElement>('chat-group').value;
	elementById('chat-from-label').textContent = groupId ? 'Member who writes' : 'Contact';
	// A contact may hide their number and write as @username; a group's members are numbers.
	elementById<HTMLInputElement>('chat-from').placeholder = groupId
		? '+14155550123 (international, with +)'
		: '+14155550123 (international, with +), or @username';
	const group = groups.find((candidate) => candidate.id === groupId);
	const numbers = group
		? (group.participants ?? []).map(({ phoneNumber }) => ({
				value: phoneNumber,
				label: phoneNumber,
			}))
		: instanceId
			? (
					await readList<ContactView>(
						`/api/v1/instances/${encodeURIComponent(instanceId)}/contacts?limit=100`,
					)
				)
					.map((contact) => ({
						value: contact.phoneNumber ?? (contact.username ? `@${contact.username}` : ''),
						name: contact.name,
					}))
					.filter(({ value }) => value)
					.map(({ value, name }) => ({ value, label: name ?? value }))
			: [];
	if (call !== offering) return;
	const own = instances.find((instance) => instance.id === instanceId)?.phoneNumber;
	fillOptions(
		elementById('chat-member-options'),
		numbers.filter(({ value }) => value !== own),
	);
}
