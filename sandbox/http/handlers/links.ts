import type { api } from '../../../src/client/api';
import { newestFirst, instant, paginate, type ResourceHandlers } from './context';
import { createLink, requireLink } from '../../links/short-links';
import { presentClick, presentLink } from '../../present';

/** The short-link endpoints: links and their clicks (what a link is and does: links/short-links.ts). */

export const linkHandlers: ResourceHandlers<typeof api.shortLink.links> = {
	create: ({ core, workspaceId, body }) =>
		presentLink(
			createLink(core, workspaceId, {
				url: body.url,
				code: body.code,
				title: body.title ?? null,
				tags: body.tags ?? [],
				expiresAt: instant(body.expiresAt ?? null),
			}),
			core.baseUrl,
		),

	list: ({ core, workspaceId, query }) => {
		const search = query.search?.toLowerCase();
		const links = core.store.all(
			'links',
			(link) =>
				link.workspaceId === workspaceId &&
				(query.tag === undefined || link.tags.includes(query.tag)) &&
				(search === undefined ||
					[link.code, link.url, link.title ?? ''].some((text) =>
						text.toLowerCase().includes(search),
					)),
		);
		return paginate(newestFirst(links), query, (link) => presentLink(link, core.baseUrl));
	},

	get: ({ core, workspaceId, params }) =>
		presentLink(requireLink(core, workspaceId, params.linkId), core.baseUrl),

	update: ({ core, workspaceId, params, body }) => {
		const link = requireLink(core, workspaceId, params.linkId);
		// Every new value is worked out before the link changes: a failure leaves it as it was.
		const expiresAt = body.expiresAt === undefined ? link.expiresAt : instant(body.expiresAt);
		if (body.url !== undefined) link.url = body.url;
		if (body.title !== undefined) link.title = body.title;
		if (body.tags !== undefined) link.tags = body.tags;
		link.expiresAt = expiresAt;
		link.updatedAt = core.now().toISOString();
		const shown = presentLink(link, core.baseUrl);
		core.emit(workspaceId, 'link.updated', shown, { linkId: link.id });
		return shown;
	},

	delete: ({ core, workspaceId, params }) => {
		const link = requireLink(core, workspaceId, params.linkId);
		core.store.remove('links', link.id);
		for (const click of core.store.all('clicks', (record) => record.linkId === link.id))
			core.store.remove('clicks', click.id);
		core.emit(workspaceId, 'link.deleted', presentLink(link, core.baseUrl), { linkId: link.id });
	},
};

export const clickHandlers: ResourceHandlers<typeof api.shortLink.clicks> = {
	list: ({ core, workspaceId, params, query }) => {
		const link = requireLink(core, workspaceId, params.linkId);
		const since = query.since ? Date.parse(query.since) : undefined;
		const clicks = core.store.all(
			'clicks',
			(click) =>
				click.linkId === link.id &&
				(query.includeBots === true || !click.bot) &&
				(since === undefined || Date.parse(click.clickedAt) >= since),
		);
		return paginate(newestFirst(clicks), query, presentClick);
	},
};
