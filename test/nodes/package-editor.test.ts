/**
 * The nodes as n8n's editor shows them: their entries in the node creator, the texts of their pickers, and the
 * subtitle under each on the canvas.
 */
import { Workflow, type INode, type INodeParameters, type INodeType } from 'n8n-workflow';

import { loadPackage } from '../../dev/harness';
import { NODE_TYPE } from '../support/nodes';
import { AUTOMATION_NODE_TYPE, SHORT_LINK_NODE_TYPE, TRIGGER_NODE_TYPES } from '../support/package';

/**
 * The entries of n8n's node creator, as its editor builds them (`generateMergedNodesAndActions` in
 * packages/frontend/editor-ui/…/NodeCreator/composables/useActionsGeneration.ts): a trigger whose type name
 * without "Trigger" is an action node's is merged into that node's entry, and the merged entry shows the
 * trigger's description ("default to trigger description"), in the "What happens next?" panel as in the
 * trigger panel. Other nodes keep their own.
 */
function nodeCreatorEntries(types: Record<string, INodeType>): Record<string, string> {
	const entries: Record<string, string> = {};
	const isTrigger = (name: string) => types[name].description.group.includes('trigger');
	for (const name of Object.keys(types).filter((name) => !isTrigger(name))) {
		entries[name] = types[name].description.description;
	}
	for (const name of Object.keys(types).filter(isTrigger)) {
		const app = name.replace('Trigger', '');
		entries[app in entries ? app : name] = types[name].description.description;
	}
	return entries;
}

test("in n8n's node creator, each action node merged with its trigger is described as an action too", async () => {
	const types = (await loadPackage()).nodeTypes as Record<string, INodeType>;
	const entries = nodeCreatorEntries(types);
	expect(Object.keys(entries).sort()).toEqual(
		[NODE_TYPE, SHORT_LINK_NODE_TYPE, AUTOMATION_NODE_TYPE].sort(),
	);
	expect(entries[NODE_TYPE]).toMatch(/^Send messages\b/);
	expect(entries[SHORT_LINK_NODE_TYPE]).toMatch(/^Create and manage\b/);
	expect(entries[AUTOMATION_NODE_TYPE]).toMatch(/^Publish\b/);
	for (const description of Object.values(entries)) {
		expect(description).toMatch(/\bor start a workflow\b/);
	}
});

test('every picker speaks English: "Select an instance...", "An instance ID has no spaces"', async () => {
	const types = (await loadPackage()).nodeTypes as Record<string, INodeType>;
	const texts: string[] = [];
	for (const type of Object.values(types)) {
		for (const property of type.description.properties) {
			for (const mode of property.modes ?? []) {
				if (mode.placeholder) texts.push(mode.placeholder);
				for (const rule of mode.validation ?? []) {
					const { errorMessage } =
						(rule as { properties?: { errorMessage?: string } }).properties ?? {};
					if (errorMessage) texts.push(errorMessage);
				}
			}
		}
	}
	expect(texts).toContain('Select an instance...');
	expect(texts).toContain('An instance ID has no spaces');
	for (const text of texts) {
		expect(text).not.toMatch(/\b[Aa] [aeiou]/);
		expect(text).not.toMatch(/\b[Aa]n [^aeiou\s]/);
	}
});

/** The subtitle under a node on the canvas, evaluated as n8n's editor does (`getNodeSubtitle`). */
async function subtitleOf(type: string, parameters: INodeParameters): Promise<unknown> {
	const nodeTypes = (await loadPackage()).nodeTypes as Record<string, INodeType>;
	const node: INode = {
		id: 'node',
		name: 'Node',
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: {
			getByName: (name) => nodeTypes[name],
			getByNameAndVersion: (name) => nodeTypes[name],
			getKnownTypes: () => ({}),
		},
	});
	return workflow.expression.getSimpleParameterValue(
		workflow.getNode('Node') as INode,
		nodeTypes[type].description.subtitle as string,
		'internal',
		{},
		undefined,
		'',
	);
}

test.each([
	[NODE_TYPE, { resource: 'message', operation: 'sendText' }, 'Message: Send Text'],
	[NODE_TYPE, { resource: 'contact', operation: 'checkNumbers' }, 'Contact: Check Numbers Exist'],
	[NODE_TYPE, { resource: 'group', operation: 'addParticipants' }, 'Group: Add Participants'],
	[SHORT_LINK_NODE_TYPE, { resource: 'click', operation: 'getAll' }, 'Click: Get Many'],
	[AUTOMATION_NODE_TYPE, { resource: 'event', operation: 'publish' }, 'Event: Publish'],
	[
		TRIGGER_NODE_TYPES[0],
		{ events: ['message.received', 'instance.qr_updated'] },
		'Message received, Instance QR updated',
	],
	[TRIGGER_NODE_TYPES[0], { events: ['*'] }, 'All Events'],
	[TRIGGER_NODE_TYPES[1], { events: ['link.clicked'] }, 'Link clicked'],
	[TRIGGER_NODE_TYPES[2], { listenTo: 'all' }, 'All events'],
	[TRIGGER_NODE_TYPES[2], { listenTo: 'chosen', eventNames: 'order.paid' }, 'order.paid'],
])('%s with %j shows the subtitle "%s"', async (type, parameters, subtitle) => {
	expect(await subtitleOf(type, parameters)).toBe(subtitle);
});

test('each trigger event has its node creator entry in the words of its label ("On instance QR updated")', async () => {
	const nodeTypes = (await loadPackage()).nodeTypes as Record<string, INodeType>;
	const events = nodeTypes[TRIGGER_NODE_TYPES[0]].description.properties.find(
		(property) => property.name === 'events',
	);
	const options = (events?.options ?? []) as Array<{ value: string; action?: string }>;
	expect(options.find((option) => option.value === 'instance.qr_updated')?.action).toBe(
		'On instance QR updated',
	);
	expect(options.find((option) => option.value === 'message.received')?.action).toBe(
		'On message received',
	);
});
