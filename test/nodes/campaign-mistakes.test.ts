/**
 * Campaign → Create and what a person gets wrong in the editor, with nock: a Text expression that gives each item
 * its own text (only the first item's would go to everyone), a workflow without an ID (its derived reference would
 * be every such workflow's), the message changed and run again (the service refuses the reference in use: the new
 * recipients would get the old message), and File Name offered for a Text campaign. Each is refused before it
 * sends, naming the field to change.
 */
import nock from 'nock';
import { NodeHelpers, type INodeProperties, type INodeType } from 'n8n-workflow';

import { loadPackage, runNode } from '../../dev/harness';
import { nockOnly } from '../support/client';
import { NODE_NAME } from '../support/nodes';
import { BASE_URL, createNode, credentials, people, service } from '../support/campaign-service';

afterAll(() => nock.restore());

nockOnly();

test('a Text expression giving each item its own text is refused, naming Text and the item; nothing is sent', async () => {
	const result = await runNode(createNode({ text: '=Hi {{ $json.name }}, our offer is on' }), {
		credentials,
		items: people(3),
	});

	expect(result.error?.message).toBe(
		'Invalid value for "Text" [item 1]: the expression gives each item its own text (item 0: "Hi Person 0, our offer is on", item 1: "Hi Person 1, our offer is on"), but a campaign sends one Text to every recipient',
	);
	expect(result.error?.description).toContain("{{ '{{' }}name}}");
	// nockOnly fails any request: none was made.
});

test('an expression giving a middle item its own text is refused too, naming that item', async () => {
	const items = people(5);
	items[2].offer = 'half price';
	const result = await runNode(createNode({ text: "=Our offer: {{ $json.offer ?? 'on' }}" }), {
		credentials,
		items,
	});

	expect(result.error?.message).toBe(
		'Invalid value for "Text" [item 2]: the expression gives each item its own text (item 0: "Our offer: on", item 2: "Our offer: half price"), but a campaign sends one Text to every recipient',
	);
});

test('an expression that is the same for every item is one text', async () => {
	const seen = service({ created: true, adds: 0 });

	const result = await runNode(createNode({ text: "=Hi {{ '{{' }}name}}, {{ 'today' }}" }), {
		credentials,
		items: people(3),
	});

	expect(result.error).toBeUndefined();
	expect(seen[0].body.message).toEqual({ text: 'Hi {{name}}, today' });
});

test('a workflow without an ID and no Reference is refused: save it first', async () => {
	const result = await runNode(createNode(), { credentials, items: people(2), workflowId: '' });

	expect(result.error?.message).toBe(
		'Invalid value for "Reference" [item 0]: this workflow has no ID to tell its campaign from others',
	);
	expect(result.error?.description).toMatch(/^Save the workflow first/);
});

test('a reference in use with another message: the error says to give the campaign a new Campaign Name', async () => {
	nock(BASE_URL)
		.post('/api/v1/instances/inst_1/campaigns')
		.reply(409, {
			error: {
				code: 'reference_in_use',
				message: `This reference is campaign cmp_1's, with another message: give the campaign a new name (or reference) to send this message`,
				details: [
					{ field: 'body.reference', message: 'in use by campaign cmp_1 with another message' },
				],
				requestId: 'req_1',
			},
		});

	const result = await runNode(createNode(), { credentials, items: people(2) });

	expect(result.error?.message).toContain('with another message');
	expect(result.error?.description).toContain(
		'To send this message, give the campaign a new Campaign Name (or Options → Reference).',
	);
	expect(result.nodeError(NODE_NAME)).toBeDefined();
});

test('File Name is offered for Media by URL only', async () => {
	const node = (await loadPackage()).nodeTypes['n8n-nodes-multichannel.multichannel'] as INodeType;
	const { description } = node;
	const collection = description.properties.find(
		(property) =>
			property.name === 'options' &&
			property.displayOptions?.show?.resource?.includes('campaign') === true &&
			property.displayOptions?.show?.operation?.includes('create') === true,
	);
	const fileName = (collection?.options as INodeProperties[]).find(
		(option) => option.name === 'fileName',
	) as INodeProperties;
	const offered = (messageType: string) =>
		NodeHelpers.displayParameterPath(
			{ parameters: { resource: 'campaign', operation: 'create', messageType, options: {} } },
			fileName,
			'parameters.options',
			{ typeVersion: 1 },
			description,
		);
	expect(offered('text')).toBe(false);
	expect(offered('media')).toBe(true);
});

test('items left out are said in a hint on the output, so that a green run does not hide them', async () => {
	service({ created: true, adds: 0 });
	const items = people(3);
	items[1].phone = '+1 415 55'; // cut short: never sent

	const result = await runNode(createNode(), { credentials, items });

	expect(result.error).toBeUndefined();
	expect(result.run.data.resultData.runData[NODE_NAME][0].hints).toEqual([
		expect.objectContaining({
			message:
				"1 of 3 input items were not added to the campaign: see notAdded in the output (each one's item index, number and why)",
			location: 'outputPane',
		}),
	]);
});
