import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { api, type ShortLinkClient } from '../../../../src/client';
import { updateFieldsCollection } from '../../../shared/collections';
import { requireChanges } from '../../../shared/input-errors';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { linkFieldNames } from './fields';
import { linkLocator } from './locator';
import { readDateTime, readList } from '../../../shared/values';

export const option = {
	name: 'Update',
	value: 'update',
	action: 'Update a short link',
	description: 'Change the destination, title, tags or expiry of a short link; its code stays',
};

export const description: INodeProperties[] = [
	{ ...linkLocator, description: 'The link to update' },
	updateFieldsCollection([
		{
			displayName: 'Destination URL',
			name: 'url',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://example.com/summer-sale',
			description: 'Where the short link sends visitors from now on',
		},
		{
			displayName: 'Expires At',
			name: 'expiresAt',
			type: 'dateTime',
			default: '',
			description:
				'When the link stops redirecting. In the time zone of the workflow unless an offset is given.',
		},
		{
			displayName: 'Remove Expiry',
			name: 'removeExpiry',
			type: 'boolean',
			default: false,
			description: 'Whether to make the link redirect without an end date',
		},
		{
			displayName: 'Tags',
			name: 'tags',
			type: 'string',
			default: '',
			placeholder: 'e.g. promo, summer',
			description:
				'Comma-separated tags; they replace the current ones. Leave empty to remove all tags.',
		},
		{
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			description: 'A name for the link, shown in lists. Leave empty to remove the title.',
		},
	]),
];

export const scope = api.shortLink.links.update.scope;
export const output = api.shortLink.links.update.response;

export const fields = linkFieldNames;

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<ShortLinkClient>,
) {
	const linkId = locatorValue(this, 'linkId', itemIndex);
	const update = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;

	const body: {
		url?: string;
		title?: string | null;
		tags?: string[];
		expiresAt?: string | null;
	} = {};
	if (update.url !== undefined) body.url = String(update.url).trim();
	if (update.title !== undefined) {
		const title = String(update.title).trim();
		body.title = title === '' ? null : title;
	}
	if (update.tags !== undefined) body.tags = readList(this, update.tags, 'Tags', itemIndex);
	if (update.removeExpiry === true) {
		if (update.expiresAt !== undefined && update.expiresAt !== '') {
			throw new NodeOperationError(
				this.getNode(),
				`"Expires At" and "Remove Expiry" cannot be used together [item ${itemIndex}]`,
				{ itemIndex, description: 'Keep one of the two in "Update Fields".' },
			);
		}
		body.expiresAt = null;
	} else if (update.expiresAt !== undefined && update.expiresAt !== '') {
		body.expiresAt = readDateTime(this, update.expiresAt, 'Expires At', itemIndex);
	}

	requireChanges(
		this.getNode(),
		itemIndex,
		body,
		`Nothing to update [item ${itemIndex}]: add at least one field under "Update Fields"`,
	);
	return await client.links.update({ linkId, body });
}
