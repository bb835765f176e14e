import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type ShortLinkClient } from '../../../../src/client';
import { filtersCollection } from '../../../shared/collections';
import { maxResults, returnAllOrLimit } from '../../../shared/get-many';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { linkLocator } from '../link/locator';
import { readDateTime } from '../../../shared/values';
import { listItem } from '../../../shared/output';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many clicks of a short link',
	description:
		'Get the click activity of a short link, newest first: time, referrer, country, device, browser',
};

export const description: INodeProperties[] = [
	{ ...linkLocator, description: 'The link whose clicks to get' },
	...returnAllOrLimit(),
	filtersCollection([
		{
			displayName: 'Include Bots',
			name: 'includeBots',
			type: 'boolean',
			default: false,
			description:
				'Whether to include visits by crawlers and link previews, which do not count as clicks',
		},
		{
			displayName: 'Since',
			name: 'since',
			type: 'dateTime',
			default: '',
			description:
				'Only clicks at or after this time. In the time zone of the workflow unless an offset is given.',
		},
	]),
];

export const scope = api.shortLink.clicks.list.scope;
export const output = listItem(api.shortLink.clicks.list);

export const fields = { linkId: 'Link', 'query.since': 'Since' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<ShortLinkClient>,
) {
	const linkId = locatorValue(this, 'linkId', itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const query: { since?: string; includeBots?: boolean } = {};
	if (filters.since !== undefined && filters.since !== '') {
		query.since = readDateTime(this, filters.since, 'Since', itemIndex);
	}
	if (filters.includeBots === true) query.includeBots = true;
	return await client.clicks.list.all({ linkId, query }, { max: maxResults(this, itemIndex) });
}
