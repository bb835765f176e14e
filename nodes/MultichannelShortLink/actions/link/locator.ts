import type { ILoadOptionsFunctions, INodeListSearchResult, INodeProperties } from 'n8n-workflow';

import { api } from '../../../../src/client';
import { shortLinkConnection } from '../../../shared/client';
import { toNodeError } from '../../../shared/errors';

/** A short link: picked from the workspace's links (searchable), or given by ID or expression. */
export const linkLocator: INodeProperties = {
	displayName: 'Link',
	name: 'linkId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The short link',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a link...',
			typeOptions: {
				searchListMethod: 'searchLinks',
				searchable: true,
			},
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. lnk_8Kd2mQ4xZp',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: '^\\S+$',
						errorMessage: 'A link ID has no spaces',
					},
				},
			],
		},
	],
};

const PAGE_SIZE = 50;

/**
 * Fills "From List": the workspace's links, newest first, whose code, destination or title contains what the
 * user typed (the service searches), a page at a time.
 */
export async function searchLinks(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	try {
		const { client } = await shortLinkConnection(this);
		const search = filter?.trim();
		const page = await client.links.list({
			query: {
				limit: PAGE_SIZE,
				...(search ? { search } : {}),
				...(paginationToken ? { cursor: paginationToken } : {}),
			},
		});
		return {
			results: page.data.map((link) => {
				const label = link.title || link.code || link.id;
				return {
					name: link.shortUrl ? `${label} (${link.shortUrl})` : label,
					value: link.id,
					...(link.shortUrl ? { url: link.shortUrl } : {}),
				};
			}),
			paginationToken: page.nextCursor ?? undefined,
		};
	} catch (error) {
		throw toNodeError(this.getNode(), error, {
			keyKind: 'short-link',
			scope: api.shortLink.links.list.scope,
			noun: 'link',
		});
	}
}
