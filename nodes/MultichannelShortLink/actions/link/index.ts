import type { ShortLinkClient } from '../../../../src/client';
import { defineResource } from '../../../shared/resources';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import { searchLinks } from './locator';
import * as update from './update.operation';

/** Short links: a code on the link host that redirects to a destination URL and counts the clicks. */
export const link = defineResource<ShortLinkClient>({
	name: 'Link',
	value: 'link',
	noun: 'link',
	operations: [create, del, get, getAll, update],
	defaultOperation: create.option.value,
	listSearch: { searchLinks },
});
