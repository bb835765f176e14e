import type { WorkspaceClient } from '../../../src/client';
import { listSearchMethods, nodeProperties, type ResourceModule } from '../../shared/resources';
import { model } from './model';

/** The resources of the Multichannel node, each a folder beside this file. */
export const resources: Array<ResourceModule<WorkspaceClient>> = [model];

export const properties = nodeProperties(resources);

export const listSearch = listSearchMethods(resources);
