import type { api } from '../../../src/client/api';
import { LABEL_COLORS, MAX_LABELS } from '../../../src/client/resources/labels';
import { presentLabel, takeOffEveryChat } from '../../channel/chat-labels';
import type { SandboxCore } from '../../core';
import { conflict, notFound } from '../../errors';
import { newId, type LabelRecord } from '../../store/store';
import { paginate, type ResourceHandlers } from './context';

/** The workspace's labels (at most MAX_LABELS); which chats have them is in ../chat-labels.ts. */

export function requireLabel(core: SandboxCore, workspaceId: string, labelId: string): LabelRecord {
	const label = core.store.find('labels', workspaceId, labelId);
	if (!label) throw notFound('Label', labelId);
	return label;
}

const labelsOf = (core: SandboxCore, workspaceId: string) =>
	core.store.all('labels', (label) => label.workspaceId === workspaceId);

function requireFreeName(core: SandboxCore, workspaceId: string, name: string, self?: string) {
	const taken = labelsOf(core, workspaceId).find(
		(label) => label.id !== self && label.name.toLowerCase() === name.toLowerCase(),
	);
	if (taken) throw conflict('label_exists', `A label named "${taken.name}" exists (${taken.id})`);
}

export const labelHandlers: ResourceHandlers<typeof api.workspace.labels> = {
	list: ({ core, workspaceId, query }) => {
		const search = query.search?.trim().toLowerCase() ?? '';
		const labels = labelsOf(core, workspaceId).filter((label) =>
			label.name.toLowerCase().includes(search),
		);
		return paginate(labels, query, (label) => presentLabel(core, label));
	},

	create: ({ core, workspaceId, body }) => {
		const labels = labelsOf(core, workspaceId);
		if (labels.length >= MAX_LABELS) {
			throw conflict(
				'label_limit_reached',
				`A workspace keeps at most ${MAX_LABELS} labels: delete one first`,
			);
		}
		const name = body.name.trim();
		requireFreeName(core, workspaceId, name);
		const used = new Set(labels.map((label) => label.color));
		const now = core.now().toISOString();
		const label = core.store.insert('labels', {
			id: newId('lbl'),
			workspaceId,
			name,
			color: body.color ?? LABEL_COLORS.find((color) => !used.has(color)) ?? LABEL_COLORS[0],
			createdAt: now,
			updatedAt: now,
		});
		return presentLabel(core, label);
	},

	get: ({ core, workspaceId, params }) =>
		presentLabel(core, requireLabel(core, workspaceId, params.labelId)),

	update: ({ core, workspaceId, params, body }) => {
		const label = requireLabel(core, workspaceId, params.labelId);
		if (body.name !== undefined) {
			requireFreeName(core, workspaceId, body.name.trim(), label.id);
			label.name = body.name.trim();
		}
		if (body.color !== undefined) label.color = body.color;
		label.updatedAt = core.now().toISOString();
		return presentLabel(core, label);
	},

	delete: ({ core, workspaceId, params }) => {
		const label = requireLabel(core, workspaceId, params.labelId);
		takeOffEveryChat(core, label);
		core.store.remove('labels', label.id);
	},
};
