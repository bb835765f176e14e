import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type ShortLinkClient } from '../../../../src/client';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { linkLocator } from './locator';
import { Deleted } from '../../../shared/output';

export const option = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a short link',
	description: 'Delete a short link and its click history; its code then answers "not found"',
};

export const description: INodeProperties[] = [
	{ ...linkLocator, description: 'The link to delete' },
];

export const scope = api.shortLink.links.delete.scope;
export const output = Deleted;

export const fields = { linkId: 'Link' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<ShortLinkClient>,
) {
	const linkId = locatorValue(this, 'linkId', itemIndex);
	await client.links.delete({ linkId });
	return { id: linkId, deleted: true };
}
