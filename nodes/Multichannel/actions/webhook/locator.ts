import { api } from '../../../../src/client';
import { workspaceConnection } from '../../../shared/connections';
import { pageQuery, searchMethod } from '../../../shared/lists';
import { locator } from '../../../shared/locator';

/** A webhook of the workspace: picked from the list (searchable by URL), or given by ID or expression. */
export const webhookLocator = locator({
	displayName: 'Webhook',
	name: 'webhookId',
	noun: 'webhook',
	searchListMethod: 'searchWebhooks',
	idPlaceholder: 'e.g. wh_2b7d4f9a1c3e5b80',
	description: 'The webhook to use',
});

/** Fills "From list": the workspace's webhooks whose URL or ID contains what the user typed. */
export const searchWebhooks = searchMethod({
	connection: workspaceConnection,
	scope: api.workspace.webhooks.list.scope,
	noun: 'webhook',
	page: async (client, { cursor }) => await client.webhooks.list({ query: pageQuery(cursor) }),
	toItem: (webhook) => ({
		name: `${webhook.url ?? webhook.id}${webhook.status === 'disabled' ? ' (disabled)' : ''}`,
		value: webhook.id,
	}),
});
