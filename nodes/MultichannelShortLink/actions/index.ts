import type { ShortLinkClient } from '../../../src/client';
import {
	listSearchMethods,
	nodeProperties,
	operationSubtitle,
	type ResourceModule,
} from '../../shared/resources';
import { click } from './click';
import { link } from './link';

/** The resources of the Multichannel Short Link node, each a folder beside this file. */
export const resources: Array<ResourceModule<ShortLinkClient>> = [link, click];

export const properties = nodeProperties(resources);

export const subtitle = operationSubtitle(resources);

export const listSearch = listSearchMethods(resources);
