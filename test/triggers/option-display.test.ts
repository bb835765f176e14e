/**
 * The Multichannel Trigger offers an option only where it can apply (issue 45, item 10): n8n's own rule
 * (`NodeHelpers.displayParameterPath`, as its editor lists a collection's "Add option") over the node as n8n's
 * loader sees it. Before, a "Message received" trigger offered Poll Message IDs, Call Types and the label filters,
 * and Max File Size showed with Download Media off.
 */
import {
	NodeHelpers,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeType,
} from 'n8n-workflow';

import { loadPackage } from '../../dev/harness';
import { TRIGGER_TYPES } from '../../dev/harness/triggers';

let node: INodeType;
beforeAll(async () => {
	node = (await loadPackage()).nodeTypes[TRIGGER_TYPES.messaging] as INodeType;
});

/** The names of the options the editor offers with these events chosen and these options set. */
function offered(events: string[], set: INodeParameters = {}): string[] {
	const { description } = node;
	const options = description.properties.find((property) => property.name === 'options')
		?.options as INodeProperties[];
	const nodeValues: INodeParameters = { parameters: { events, options: set } };
	return options
		.filter((option) =>
			NodeHelpers.displayParameterPath(
				nodeValues,
				option,
				'parameters.options',
				{ typeVersion: 1 },
				description,
			),
		)
		.map((option) => option.name);
}

const POLLS_CALLS_LABELS = [
	'pollMessageIds',
	'callTypes',
	'labelIds',
	'labelChange',
	'campaignIds',
];

test('a Message Received trigger offers no poll, call, label or campaign filter, and Max File Size only with Download Media on', () => {
	const received = offered(['message.received']);
	expect(received).toEqual(
		expect.arrayContaining(['downloadMedia', 'onlyReplies', 'textContains']),
	);
	expect(received).not.toEqual(
		expect.arrayContaining([
			expect.stringMatching(
				/^(pollMessageIds|callTypes|labelIds|labelChange|campaignIds|maxFileSizeMb)$/,
			),
		]),
	);
	expect(offered(['message.received'], { downloadMedia: true })).toContain('maxFileSizeMb');
});

test.each([
	[['poll.voted'], ['pollMessageIds']],
	[['call.missed'], ['callTypes']],
	[['call.received', 'call.rejected'], ['callTypes']],
	[['chat.labels_changed'], ['labelIds', 'labelChange']],
	[
		['poll.voted', 'chat.labels_changed'],
		['pollMessageIds', 'labelIds', 'labelChange'],
	],
	[['campaign.completed', 'contact.opted_out'], ['campaignIds']],
])(
	'events %j offer %j of the poll, call, label and campaign filters, and no Download Media',
	(events, wanted) => {
		const shown = offered(events);
		expect(shown.filter((name) => POLLS_CALLS_LABELS.includes(name))).toEqual(wanted);
		expect(shown).not.toContain('downloadMedia');
	},
);

test('All Events offer every option but Presence States; events from an expression, every option', () => {
	const every = (
		node.description.properties.find((property) => property.name === 'options')
			?.options as INodeProperties[]
	).map((option) => option.name);
	// Presence is not among All Events (it comes often): its filter shows with Presence Updated chosen only.
	expect(offered(['*'], { downloadMedia: true, taps: 'matching' }).sort()).toEqual(
		every.filter((name) => name !== 'presenceStates').sort(),
	);
	expect(
		offered(['={{ $json.events }}'], { downloadMedia: true, taps: 'matching' }).sort(),
	).toEqual([...every].sort());
});

test('All Events says in plain English which event it leaves out (seen in the editor: "but Presence updated, which come often")', () => {
	const events = node.description.properties.find((property) => property.name === 'events');
	const all = (events?.options as INodePropertyOptions[]).find((option) => option.value === '*');
	expect(all?.description).toBe(
		'Every event, including ones the service adds later, except Presence updated, which comes often: choose it by name',
	);
});

test('campaign and opt-out events offer none of the received-message options (gathering, replies, message filters)', () => {
	const received = offered(['message.received']);
	const messageOnly = [
		'gatherMessages',
		'onlyReplies',
		'taps',
		'includeAnswersTaken',
		'textContains',
		'textStartsWith',
		'textPattern',
		'messageKinds',
		'chatType',
		'chats',
		'onlyMentioningMe',
	].filter((name) => received.includes(name));
	expect(messageOnly.length).toBeGreaterThanOrEqual(9);
	const campaigns = offered(['campaign.completed', 'contact.opted_out']);
	expect(campaigns.filter((name) => messageOnly.includes(name))).toEqual([]);
	expect(campaigns).toContain('campaignIds');
	expect(offered(['message.received', 'campaign.completed'])).toEqual(
		expect.arrayContaining(messageOnly),
	);
});

test.each([
	[['message.reaction'], ['reactionChange', 'reactionEmojis', 'chatType', 'chats']],
	[['message.deleted'], ['changedBy', 'chatType', 'chats']],
	[['presence.updated'], ['presenceStates', 'chatType', 'chats']],
	[['instance.restricted'], []],
])('the contact’s acts %j offer %j, and no text filter', (events, wanted) => {
	const acts = [
		'reactionChange',
		'reactionEmojis',
		'changedBy',
		'presenceStates',
		'chatType',
		'chats',
	];
	const shown = offered(events);
	expect(shown.filter((name) => acts.includes(name)).sort()).toEqual([...wanted].sort());
	expect(shown).not.toContain('textContains');
});
