import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { Scope } from '../../src/client';
import type { ConnectedClient, ServiceConnection } from './connections';
import { toNodeError } from './errors';
import { currentLocatorValue } from './locator';
import type { ListSearchMethod } from './resources';

/**
 * The lists the editor shows from the service: "From list" searches of resource locators (`listSearch`) and
 * the options of multi-selects (`loadOptions`). A failure is mapped like any other (`toNodeError`).
 */

interface ListSource<C> {
	connection: ServiceConnection<C>;
	/** The scope the list needs, named when the key lacks it. */
	scope: Scope;
	/** What the list holds, in sentence text: "instance". */
	noun: string;
}

async function fromService<C, R>(
	context: ILoadOptionsFunctions,
	source: ListSource<C>,
	read: (client: C) => Promise<R>,
): Promise<R> {
	let connection: ConnectedClient<C> | undefined;
	try {
		connection = await source.connection.connect(context);
		return await read(connection.client);
	} catch (error) {
		throw toNodeError(context.getNode(), error, {
			keyKind: source.connection.keyKind,
			scope: source.scope,
			noun: source.noun,
			secrets: connection?.secrets,
			serviceUrl: connection?.serviceUrl,
		});
	}
}

/** The query of one page of a "From list": `limit` entries, after the editor's pagination token. */
export function pageQuery(
	cursor: string | undefined,
	limit = 100,
): { limit: number; cursor?: string } {
	return { limit, ...(cursor ? { cursor } : {}) };
}

/** The query of one page of a "From list" whose service searches itself (`serviceSearches`). */
export function searchPageQuery(
	{ cursor, search }: { cursor?: string; search: string },
	limit?: number,
): { limit: number; cursor?: string; search?: string } {
	return { ...pageQuery(cursor, limit), ...(search ? { search } : {}) };
}

export interface SearchPage<T> {
	data: T[];
	nextCursor?: string | null;
}

/** What one page of a "From list" is read with. */
export interface SearchRequest {
	/** The editor's pagination token: the `nextCursor` of the page before. */
	cursor?: string;
	/** What the user typed, trimmed; for a service that searches itself (`serviceSearches`). */
	search: string;
	/** The value of the locator the list depends on (`dependsOn`), such as the instance of a group list. */
	parent: string;
}

/**
 * A "From list" search (`methods.listSearch`): one page of the service's list at a time, following the
 * editor's pagination token, as list entries. What the user typed is passed on to a service that searches
 * itself (`serviceSearches`); otherwise the entries whose name or ID contains it are kept here. A list that
 * depends on another locator (`dependsOn`: the groups of the chosen instance) is empty until that one is set.
 */
export function searchMethod<C, T>(
	options: ListSource<C> & {
		page: (client: C, request: SearchRequest) => Promise<SearchPage<T>>;
		toItem: (entry: T) => INodeListSearchItems;
		serviceSearches?: boolean;
		dependsOn?: string;
	},
): ListSearchMethod {
	return async function (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		const parent = options.dependsOn ? currentLocatorValue(this, options.dependsOn) : '';
		if (options.dependsOn && !parent) return { results: [] };
		const search = filter?.trim() ?? '';
		const request = { cursor: paginationToken || undefined, search, parent };
		const { data, nextCursor } = await fromService(
			this,
			options,
			async (client) => await options.page(client, request),
		);
		const needle = options.serviceSearches ? '' : search.toLowerCase();
		const results = data
			.map(options.toItem)
			.filter(
				(item) =>
					needle === '' ||
					item.name.toLowerCase().includes(needle) ||
					String(item.value).toLowerCase().includes(needle),
			);
		return { results, paginationToken: nextCursor ?? undefined };
	};
}

/** Fills a multi-select (a trigger's filter) with the entries of the service's list. */
export async function optionsFrom<C, T>(
	context: ILoadOptionsFunctions,
	options: ListSource<C> & {
		list: (client: C) => Promise<T[]>;
		toOption: (entry: T) => INodePropertyOptions;
	},
): Promise<INodePropertyOptions[]> {
	const entries = await fromService(context, options, options.list);
	return entries.map(options.toOption);
}

/** A short link as both link pickers name it: its title (or code), then its short URL. */
export function linkName(link: {
	id: string;
	title?: string | null;
	code?: string;
	shortUrl?: string;
}): string {
	const label = link.title || link.code || link.id;
	return link.shortUrl ? `${label} (${link.shortUrl})` : label;
}
