import type { ShortLinkClient } from '../../../../src/client';
import { defineResource } from '../../../shared/resources';
import * as getAll from './getAll.operation';

/** The click activity of a short link: one entry per visit of its short URL. */
export const click = defineResource<ShortLinkClient>({
	name: 'Click',
	value: 'click',
	noun: 'link',
	operations: [getAll],
	defaultOperation: getAll.option.value,
});
