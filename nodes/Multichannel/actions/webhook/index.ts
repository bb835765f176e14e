import type { WorkspaceClient } from '../../../../src/client';
import { defineResource } from '../../../shared/resources';
import * as create from './create.operation';
import * as deleteWebhook from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import { searchWebhooks } from './locator';
import * as update from './update.operation';

/** Webhooks of the messaging channel: where the service posts its signed events. */
export const webhook = defineResource<WorkspaceClient>({
	name: 'Webhook',
	value: 'webhook',
	noun: 'webhook',
	operations: [create, get, getAll, update, deleteWebhook],
	defaultOperation: getAll.option.value,
	listSearch: { searchWebhooks },
});
