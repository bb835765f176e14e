/**
 * The one rule for "is this chat a group?" and the one rule for a typed list (src/client/chat-ids.ts, lists.ts), and
 * the trigger's Chats filter, which read them differently from Send and Wait before (issue 46). Send and Wait's
 * side, run as a real workflow with its requests on the wire: send-and-wait-controls.test.ts.
 */
import type { INode } from 'n8n-workflow';

import { readMessageFilters } from '../../nodes/MultichannelTrigger/filters';
import { groupChatId, isGroupChatId, listEntries } from '../../src/client';

describe('the rules', () => {
	test.each([
		['120363000000000042@g.us', true],
		['120363000000000042@G.US', true],
		['team.Ops-1@g.us', true],
		['14155550123@s.whatsapp.net', false],
		['+14155550123', false],
		['a b@g.us', false],
		['120363@g.us.example', false],
		[42, false],
	])('%s is a group: %s', (value, group) => {
		expect(isGroupChatId(value)).toBe(group);
	});

	test('a group id is written with its suffix in lower case, its own part as given', () => {
		expect(groupChatId('120363000000000042@G.US')).toBe('120363000000000042@g.us');
		expect(groupChatId('Team@g.Us')).toBe('Team@g.us');
	});

	test('a list is split on commas, semicolons and new lines, trimmed, empty entries dropped', () => {
		expect(listEntries('+14155550123; +442079460958,\n a ,,;')).toEqual([
			'+14155550123',
			'+442079460958',
			'a',
		]);
		expect(listEntries(['x', 7])).toEqual(['x', '7']);
		expect(listEntries(undefined)).toEqual([]);
		expect(listEntries({})).toBeUndefined();
	});
});

describe("the trigger's Chats filter", () => {
	const node = { name: 'Multichannel Trigger' } as INode;

	test('reads the same list and the same group as Send and Wait', () => {
		const filters = readMessageFilters(node, {
			chats: '+14155550161; +442079460958\n120363000000000042@G.US',
		});
		expect([...(filters.chats ?? [])]).toEqual([
			'14155550161',
			'442079460958',
			'120363000000000042@g.us',
		]);
	});
});
