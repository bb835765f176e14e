import type { INodeProperties } from 'n8n-workflow';

import { compact } from '../../../shared/values';

/** The group's description and settings, offered by both Create and Update. */
export const groupInfoOptions: INodeProperties[] = [
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		default: '',
		typeOptions: { rows: 3 },
	},
	{
		displayName: 'Only Admins Can Edit Info',
		name: 'locked',
		type: 'boolean',
		default: false,
		description: 'Whether only admins can change the subject, description and picture',
	},
	{
		displayName: 'Only Admins Can Send',
		name: 'announcementsOnly',
		type: 'boolean',
		default: false,
		description: 'Whether only admins can send messages to the group',
	},
];

export interface GroupInfo {
	description?: string;
	locked?: boolean;
	announcementsOnly?: boolean;
}

/** The request body's `description` and `settings`, leaving out what the user did not set. */
export function groupInfoBody(info: GroupInfo) {
	const settings = compact({ locked: info.locked, announcementsOnly: info.announcementsOnly });
	return {
		...(info.description !== undefined ? { description: info.description } : {}),
		...(Object.keys(settings).length > 0 ? { settings } : {}),
	};
}
