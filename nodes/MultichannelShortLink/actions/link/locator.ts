import { api } from '../../../../src/client';
import { shortLinkConnection } from '../../../shared/connections';
import { linkName, searchMethod, searchPageQuery } from '../../../shared/lists';
import { locator } from '../../../shared/locator';

/** A short link: picked from the workspace's links (searchable), or given by ID or expression. */
export const linkLocator = locator({
	displayName: 'Link',
	name: 'linkId',
	noun: 'link',
	searchListMethod: 'searchLinks',
	idPlaceholder: 'e.g. lnk_8Kd2mQ4xZp',
	description: 'The short link',
});

const PAGE_SIZE = 50;

/**
 * Fills "From List": the workspace's links, newest first, whose code, destination or title contains what the
 * user typed (the service searches), a page at a time.
 */
export const searchLinks = searchMethod({
	connection: shortLinkConnection,
	scope: api.shortLink.links.list.scope,
	noun: 'link',
	serviceSearches: true,
	page: async (client, request) =>
		await client.links.list({ query: searchPageQuery(request, PAGE_SIZE) }),
	toItem: (link) => ({
		name: linkName(link),
		value: link.id,
		...(link.shortUrl ? { url: link.shortUrl } : {}),
	}),
});
