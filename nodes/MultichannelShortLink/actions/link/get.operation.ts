import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type ShortLinkClient } from '../../../../src/client';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { linkLocator } from './locator';

export const option = {
	name: 'Get',
	value: 'get',
	action: 'Get a short link',
	description: 'Get one short link, with its destination and click count',
};

export const description: INodeProperties[] = [{ ...linkLocator, description: 'The link to get' }];

export const scope = api.shortLink.links.get.scope;
export const output = api.shortLink.links.get.response;

export const fields = { linkId: 'Link' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<ShortLinkClient>,
) {
	const linkId = locatorValue(this, 'linkId', itemIndex);
	return await client.links.get({ linkId });
}
