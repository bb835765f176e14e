import type { INodeProperties } from 'n8n-workflow';

import { api } from '../../../../src/client';
import { LABEL_COLORS } from '../../../../src/client/resources/labels';
import { workspaceConnection } from '../../../shared/connections';
import { searchMethod, searchPageQuery } from '../../../shared/lists';
import { locator } from '../../../shared/locator';

/** A label of the workspace: picked from its labels (searchable by name), or given by ID or expression. */
export const labelLocator = locator({
	displayName: 'Label',
	name: 'labelId',
	noun: 'label',
	searchListMethod: 'searchLabels',
	idPlaceholder: 'e.g. lbl_0123456789abcdef',
	description: "The label, one of the workspace's",
});

/** Fills "From List": the workspace's labels, searched by name at the service. */
export const searchLabels = searchMethod({
	connection: workspaceConnection,
	scope: api.workspace.labels.list.scope,
	noun: 'label',
	serviceSearches: true,
	page: async (client, request) => await client.labels.list({ query: searchPageQuery(request) }),
	toItem: (label) => ({ name: label.name, value: label.id }),
});

/** Names people know WhatsApp Business's palette by, in the palette's order. */
const COLOR_NAMES = [
	'Pink',
	'Mustard',
	'Indigo',
	'Lime',
	'Cyan',
	'Blush',
	'Sage',
	'Red',
	'Blue',
	'Green',
	'Orange',
	'Sky',
	'Periwinkle',
	'Purple',
	'Salmon',
	'Azure',
	'Yellow',
	'Lilac',
	'Slate',
	'Teal',
];

/** The label's colour, one of the palette's. */
export const colorField: INodeProperties = {
	displayName: 'Color',
	name: 'color',
	type: 'options',
	default: '#ff9dff',
	description:
		"The label's colour, from WhatsApp Business's palette; a new label without one gets the first colour no label uses yet",
	options: LABEL_COLORS.map((value, index) => ({
		name: `${COLOR_NAMES[index]} (${value})`,
		value,
	})),
};

export const nameField: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	placeholder: 'e.g. New customer',
	description: 'Unique in the workspace, ignoring case; up to 100 characters',
};

export const labelFieldNames = {
	labelId: 'Label',
	'body.name': 'Name',
	'body.color': 'Color',
};
