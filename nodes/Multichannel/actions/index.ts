import type { WorkspaceClient } from '../../../src/client';
import {
	listSearchMethods,
	nodeProperties,
	operationSubtitle,
	type ResourceModule,
} from '../../shared/resources';
import { call } from './call';
import { campaign } from './campaign';
import { chat } from './chat';
import { contact } from './contact';
import { group } from './group';
import { instance } from './instance';
import { label } from './label';
import { message } from './message';
import { model } from './model';
import { optOut } from './optOut';
import { scheduled } from './scheduled';
import { status } from './status';
import { webhook } from './webhook';

/** The resources of the Multichannel node, each a folder beside this file. */
export const resources: Array<ResourceModule<WorkspaceClient>> = [
	message,
	chat,
	instance,
	group,
	contact,
	webhook,
	model,
	call,
	scheduled,
	label,
	status,
	campaign,
	optOut,
];

export const properties = nodeProperties(resources);

export const subtitle = operationSubtitle(resources);

export const listSearch = listSearchMethods(resources);
