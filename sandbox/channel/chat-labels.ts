import type { SandboxCore } from '../core';
import type { ChatLabelRecord, LabelRecord } from '../store/store';

/**
 * Which labels each chat has: one record per labelled chat (`<instance>/<chat>`), removed when its last label
 * goes, so that what is kept is bounded by the chats that exist. Every change emits `chat.labels_changed`.
 */

export function presentLabel(core: SandboxCore, label: LabelRecord) {
	let chatCount = 0;
	for (const chat of core.store.values('chatLabels')) {
		if (chat.labelIds.includes(label.id)) chatCount += 1;
	}
	return {
		id: label.id,
		name: label.name,
		color: label.color,
		chatCount,
		createdAt: label.createdAt,
		updatedAt: label.updatedAt,
	};
}

const recordId = (instanceId: string, chatId: string) => `${instanceId}/${chatId}`;

export function labelIdsOf(core: SandboxCore, instanceId: string, chatId: string): string[] {
	return core.store.get('chatLabels', recordId(instanceId, chatId))?.labelIds ?? [];
}

function presentLabels(core: SandboxCore, workspaceId: string, ids: string[]) {
	return ids.flatMap((id) => {
		const label = core.store.find('labels', workspaceId, id);
		return label ? [presentLabel(core, label)] : [];
	});
}

/** A chat's labels as the contract shows them on a chat. */
export function chatLabels(
	core: SandboxCore,
	workspaceId: string,
	instanceId: string,
	chatId: string,
) {
	return presentLabels(core, workspaceId, labelIdsOf(core, instanceId, chatId));
}

type Reason = 'added' | 'removed' | 'label_deleted';

/**
 * Puts on (`add`) or takes off a label, emitting `chat.labels_changed` when that changed anything; the chat's
 * labels now either way. A label taken off for `label_deleted` is presented as it was, before it went.
 */
export function changeChatLabel(
	core: SandboxCore,
	label: LabelRecord,
	instanceId: string,
	chatId: string,
	reason: Reason,
) {
	const { workspaceId } = label;
	const id = recordId(instanceId, chatId);
	const before = labelIdsOf(core, instanceId, chatId);
	const add = reason === 'added';
	const changed = add ? !before.includes(label.id) : before.includes(label.id);
	const after = add ? [...before, label.id] : before.filter((labelId) => labelId !== label.id);
	if (changed) {
		const presented = presentLabel(core, label);
		store(core, { id, workspaceId, instanceId, chatId, labelIds: after });
		const labels = presentLabels(core, workspaceId, after);
		const data = {
			instanceId,
			chatId,
			labels,
			added: add ? [presentLabel(core, label)] : [],
			removed: add ? [] : [presented],
			reason,
		};
		core.emit(workspaceId, 'chat.labels_changed', data);
		return { instanceId, chatId, labels };
	}
	return { instanceId, chatId, labels: presentLabels(core, workspaceId, after) };
}

function store(core: SandboxCore, record: ChatLabelRecord): void {
	const kept = core.store.get('chatLabels', record.id);
	if (record.labelIds.length === 0) core.store.remove('chatLabels', record.id);
	else if (kept) kept.labelIds = record.labelIds;
	else core.store.insert('chatLabels', record);
}

/** Takes a label off every chat that has it (one event each), before the label itself is removed. */
export function takeOffEveryChat(core: SandboxCore, label: LabelRecord): void {
	for (const chat of core.store.all('chatLabels', (record) => record.labelIds.includes(label.id))) {
		changeChatLabel(core, label, chat.instanceId, chat.chatId, 'label_deleted');
	}
}
