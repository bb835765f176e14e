import type { ShortLinkClient } from '../../../src/client';
import { listSearchMethods, nodeProperties, type ResourceModule } from '../../shared/resources';
import { click } from './click';
import { link } from './link';

/** The resources of the Multichannel Short Link node, each a folder beside this file. */
export const resources: Array<ResourceModule<ShortLinkClient>> = [link, click];

export const properties = nodeProperties(resources);

export const listSearch = listSearchMethods(resources);
