import { z } from '../zod';

import { operation } from '../operation';
import { Id, ListQuery, named, page, pathParams, Timestamp, text } from '../schemas';

/**
 * Labels: a workspace's tags for chats (name, colour), as WhatsApp Business has them. A label is put on and
 * taken off a chat of any instance of the workspace; chats are listed by label (chats.ts).
 */

/** How many labels a workspace keeps: WhatsApp Business allows 20. */
export const MAX_LABELS = 20;

/** The colours a label may have: WhatsApp Business's label palette, in its order. */
export const LABEL_COLORS = [
	'#ff9dff',
	'#d3a91d',
	'#6d7cce',
	'#d7e752',
	'#00d0e2',
	'#ffc5c7',
	'#93ceac',
	'#f74848',
	'#00a0f2',
	'#83e422',
	'#ffaf04',
	'#b5ebff',
	'#9ba6ff',
	'#9368cf',
	'#ff9485',
	'#64c4ff',
	'#ffd429',
	'#dfaef0',
	'#99b6c1',
	'#55ccb3',
] as const;

export const LabelColor = z
	.enum(LABEL_COLORS)
	.describe(
		'A colour of the palette (lowercase #rrggbb); a new label without one gets the first colour no label uses yet',
	);

export const Label = named(
	'Label',
	z.looseObject({
		id: Id.describe('`lbl_…`'),
		name: z.string(),
		color: z.string().describe('#rrggbb, from the palette'),
		chatCount: z
			.number()
			.int()
			.min(0)
			.optional()
			.describe('How many chats (of all instances of the workspace) have the label now'),
		createdAt: Timestamp.describe('When the label was made (ISO-8601)'),
		updatedAt: Timestamp.describe('When its name or colour last changed (ISO-8601)'),
	}),
);
export type Label = z.output<typeof Label>;

const LabelName = text({ min: 1, max: 100 }).describe(
	'Unique in the workspace, ignoring case; 1–100 characters',
);

/** A chat's labels after a change: the chat, and every label it has now. */
export const ChatLabels = named(
	'ChatLabels',
	z.looseObject({
		instanceId: Id,
		chatId: z.string(),
		labels: z.array(Label).describe('Every label the chat has now, in the order they were put on'),
	}),
);

/** `chat.labels_changed`: a chat's labels now, and what was put on and taken off. */
export const ChatLabelsChanged = named(
	'ChatLabelsChanged',
	ChatLabels.extend({
		added: z.array(Label).describe('Labels put on the chat by this change'),
		removed: z.array(Label).describe('Labels taken off the chat by this change'),
		reason: z
			.enum(['added', 'removed', 'label_deleted'])
			.describe('`label_deleted`: the label was deleted, which takes it off every chat'),
	}),
);

export const LabelListQuery = ListQuery.extend({
	search: text({ max: 100 }).optional().describe('Part of the name, ignoring case'),
});

const byId = pathParams('labelId');
const item = '/labels/{labelId}';

export const labelOperations = {
	list: operation({
		method: 'GET',
		path: '/labels',
		summary: "List the workspace's labels, in the order they were made",
		scope: 'messaging:read',
		query: LabelListQuery,
		response: page(Label),
		status: 200,
		paginated: true,
	}),
	create: operation({
		method: 'POST',
		path: '/labels',
		summary: 'Create a label',
		description: `A workspace keeps at most ${MAX_LABELS} labels (409 \`label_limit_reached\`); a name in use, ignoring case, is 409 \`label_exists\`.`,
		scope: 'messaging:write',
		body: z.strictObject({ name: LabelName, color: LabelColor.optional() }),
		response: Label,
		status: 201,
		creates: true,
	}),
	get: operation({
		method: 'GET',
		path: item,
		summary: 'Get a label',
		scope: 'messaging:read',
		params: byId,
		response: Label,
		status: 200,
	}),
	update: operation({
		method: 'PATCH',
		path: item,
		summary: 'Rename a label or change its colour',
		description:
			'The chats that have it keep it; a name in use, ignoring case, is 409 `label_exists`.',
		scope: 'messaging:write',
		params: byId,
		body: z.strictObject({ name: LabelName.optional(), color: LabelColor.optional() }),
		response: Label,
		status: 200,
	}),
	delete: operation({
		method: 'DELETE',
		path: item,
		summary: 'Delete a label, taking it off every chat',
		description:
			'Each chat that had it gets a `chat.labels_changed` event with `reason: label_deleted`.',
		scope: 'messaging:write',
		params: byId,
		status: 204,
	}),
};
