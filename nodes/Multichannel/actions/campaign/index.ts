import type { WorkspaceClient } from '../../../../src/client';
import { defineResource } from '../../../shared/resources';
import * as cancel from './cancel.operation';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getRecipients from './getRecipients.operation';
import { searchCampaigns } from './locator';
import * as pause from './pause.operation';
import * as resume from './resume.operation';

/** Campaigns: one message to every input item, paced and sent once each by the service; followed and steered. */
export const campaign = defineResource<WorkspaceClient>({
	name: 'Campaign',
	value: 'campaign',
	noun: 'campaign',
	operations: [create, get, getAll, getRecipients, pause, resume, cancel],
	defaultOperation: create.option.value,
	listSearch: { searchCampaigns },
});
