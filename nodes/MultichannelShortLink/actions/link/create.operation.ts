import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type ShortLinkClient } from '../../../../src/client';
import { additionalFieldsCollection, optionsCollection } from '../../../shared/collections';
import { idempotencyKeyFor, idempotencyKeyOption } from '../../../shared/idempotency';
import type { OperationContext } from '../../../shared/resources';
import { linkFieldNames } from './fields';
import { readDateTime, readList } from '../../../shared/values';

export const option = {
	name: 'Create',
	value: 'create',
	action: 'Create a short link',
	description: 'Create a short link that redirects to a destination URL',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Destination URL',
		name: 'url',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. https://example.com/spring-sale',
		description: 'Where the short link sends visitors. Must start with http:// or https://.',
	},
	additionalFieldsCollection([
		{
			displayName: 'Custom Code',
			name: 'code',
			type: 'string',
			default: '',
			placeholder: 'e.g. spring-sale',
			description:
				'The code after the link host, 3 to 64 letters, digits, dashes or underscores. A random code is made when left empty.',
		},
		{
			displayName: 'Expires At',
			name: 'expiresAt',
			type: 'dateTime',
			default: '',
			description:
				'When the link stops redirecting; visitors then get "gone". In the time zone of the workflow unless an offset is given.',
		},
		{
			displayName: 'Tags',
			name: 'tags',
			type: 'string',
			default: '',
			placeholder: 'e.g. promo, spring',
			description: 'Comma-separated tags, to group and filter links',
		},
		{
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			placeholder: 'e.g. Spring sale landing page',
			description: 'A name for the link, shown in lists',
		},
	]),
	optionsCollection([idempotencyKeyOption]),
];

export const scope = api.shortLink.links.create.scope;
export const output = api.shortLink.links.create.response;

export const fields = linkFieldNames;

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex, options }: OperationContext<ShortLinkClient>,
) {
	const url = (this.getNodeParameter('url', itemIndex) as string).trim();
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;

	const body: {
		url: string;
		code?: string;
		title?: string;
		tags?: string[];
		expiresAt?: string;
	} = { url };
	if (typeof additional.code === 'string' && additional.code.trim() !== '') {
		body.code = additional.code.trim();
	}
	if (typeof additional.title === 'string' && additional.title.trim() !== '') {
		body.title = additional.title.trim();
	}
	if (additional.tags !== undefined && additional.tags !== '') {
		body.tags = readList(this, additional.tags, 'Tags', itemIndex);
	}
	if (additional.expiresAt !== undefined && additional.expiresAt !== '') {
		body.expiresAt = readDateTime(this, additional.expiresAt, 'Expires At', itemIndex);
	}

	const idempotencyKey = idempotencyKeyFor(this, itemIndex, options.idempotencyKey, {
		operation: 'link.create',
		body,
	});
	return await client.links.create({ body }, { idempotencyKey });
}
