import type { IExecuteFunctions } from 'n8n-workflow';

import type { WorkspaceClient } from '../../../src/client';
import { listSearchMethods, nodeProperties, type ResourceModule } from '../../shared/resources';
import { concurrencyOf } from './common';
import { contact } from './contact';
import { group } from './group';
import { instance } from './instance';
import { message } from './message';
import { model } from './model';
import { webhook } from './webhook';

/** The resources of the Multichannel node, each a folder beside this file. */
export const resources: Array<ResourceModule<WorkspaceClient>> = [
	message,
	instance,
	group,
	contact,
	webhook,
	model,
];

export const properties = nodeProperties(resources);

export const listSearch = listSearchMethods(resources);

/** How many items run at once: the "Concurrency" option of sends; other operations one at a time. */
export function concurrency(context: IExecuteFunctions): number {
	return concurrencyOf(context);
}
