import type { api } from '../../../src/client/api';
import { MAX_STATUSES, STATUS_LIFETIME_HOURS } from '../../../src/client/resources/statuses';
import type { SandboxCore } from '../../core';
import { conflict, HttpError, notFound } from '../../errors';
import { newId, type InstanceRecord, type StatusRecord } from '../../store/store';
import { checkUrl, newestFirst, paginate, requireFile, type ResourceHandlers } from './context';
import { requireConnected, requireInstance } from '../../channel/instance-records';
import { keepFile } from '../../channel/message-files';

/**
 * The instance's statuses. Each lives STATUS_LIFETIME_HOURS: expired ones are removed whenever the instance's
 * statuses are read or written, so at most MAX_STATUSES are kept per instance. Views come from contacts
 * (`POST /sandbox/instances/{id}/statuses/{statusId}/view`, ../status-views.ts).
 */

/** Each contact who viewed a status is kept once, up to this many (a view count past it stays there). */
export const MAX_VIEWERS = 1000;

const DEFAULT_BACKGROUND = '#128c7e';

export const presentStatus = (status: StatusRecord) => ({
	id: status.id,
	instanceId: status.instanceId,
	type: status.type,
	text: status.text,
	backgroundColor: status.backgroundColor,
	caption: status.caption,
	url: status.url,
	media: status.media,
	viewCount: status.viewers.length,
	createdAt: status.createdAt,
	expiresAt: status.expiresAt,
});

/** The instance's live statuses, oldest first; the expired ones are removed on the way. */
export function liveStatuses(core: SandboxCore, instance: InstanceRecord): StatusRecord[] {
	const now = core.now().getTime();
	const live: StatusRecord[] = [];
	for (const status of core.store.all('statuses', (record) => record.instanceId === instance.id)) {
		if (Date.parse(status.expiresAt) <= now) core.store.remove('statuses', status.id);
		else live.push(status);
	}
	return live;
}

export function requireStatus(
	core: SandboxCore,
	workspaceId: string,
	instanceId: string,
	statusId: string,
): StatusRecord {
	const instance = requireInstance(core, workspaceId, instanceId);
	const status = liveStatuses(core, instance).find((record) => record.id === statusId);
	if (!status) throw notFound('Status', statusId);
	return status;
}

type Content = Pick<
	StatusRecord,
	'type' | 'text' | 'backgroundColor' | 'caption' | 'url' | 'media'
>;

function post(core: SandboxCore, workspaceId: string, instanceId: string, content: () => Content) {
	const instance = requireConnected(core, workspaceId, instanceId);
	if (liveStatuses(core, instance).length >= MAX_STATUSES) {
		throw conflict(
			'status_limit_reached',
			`An instance keeps at most ${MAX_STATUSES} live statuses: delete one or wait for one to expire`,
		);
	}
	const now = core.now();
	const status = core.store.insert('statuses', {
		id: newId('st'),
		workspaceId,
		instanceId: instance.id,
		...content(),
		viewers: [],
		createdAt: now.toISOString(),
		expiresAt: new Date(now.getTime() + STATUS_LIFETIME_HOURS * 3_600_000).toISOString(),
	});
	return presentStatus(status);
}

export const statusHandlers: ResourceHandlers<typeof api.workspace.statuses> = {
	post: ({ core, workspaceId, params, body }) =>
		post(core, workspaceId, params.instanceId, () => {
			if (body.url !== undefined) checkUrl(body.url, core.outbound.media.policy);
			return {
				type: body.type,
				text: body.text ?? null,
				backgroundColor: body.type === 'text' ? (body.backgroundColor ?? DEFAULT_BACKGROUND) : null,
				caption: body.caption ?? null,
				url: body.url ?? null,
				media: null,
			};
		}),

	postUpload: (context) => {
		const { core, workspaceId, params, body } = context;
		return post(core, workspaceId, params.instanceId, () => {
			const file = requireFile(context.file);
			if (!file.mimeType.startsWith(`${body.type}/`)) {
				throw new HttpError(400, 'validation_failed', `The file is not an ${body.type}`, [
					{ field: 'file', message: `${file.mimeType} is not an ${body.type} type` },
				]);
			}
			const media = keepFile(core, workspaceId, file);
			return {
				type: body.type,
				text: null,
				backgroundColor: null,
				caption: body.caption ?? null,
				url: null,
				media,
			};
		});
	},

	list: ({ core, workspaceId, params, query }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		return paginate(newestFirst(liveStatuses(core, instance)), query, presentStatus);
	},

	delete: ({ core, workspaceId, params }) => {
		const status = requireStatus(core, workspaceId, params.instanceId, params.statusId);
		core.store.remove('statuses', status.id);
	},
};
