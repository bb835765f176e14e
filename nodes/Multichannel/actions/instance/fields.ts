import type { INodeProperties } from 'n8n-workflow';

/** The Description field of Create and Update. */
export const descriptionField: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	default: '',
	typeOptions: { rows: 2 },
	description: 'What the instance is for',
};
