import type { AutomationClient } from '../../../src/client';
import { nodeProperties, operationSubtitle, type ResourceModule } from '../../shared/resources';
import { event } from './event';

/** The resources of the Multichannel Automation node, each a folder beside this file. */
export const resources: Array<ResourceModule<AutomationClient>> = [event];

export const properties = nodeProperties(resources);

export const subtitle = operationSubtitle(resources);
