/**
 * How many entries a message may hold (reply buttons, list rows, contact cards; Send and Wait's choices, which are
 * a list's rows): declared once in the contract (`PER_MESSAGE`), stated by the OpenAPI document, and the same on
 * the node's fields, where n8n checks them in the editor before a run. Values from an expression (JSON) are
 * checked by the node itself (interactive.test.ts).
 */
import type { IDataObject, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { loadPackage, runNode } from '../../dev/harness';
import { buildOpenApiDocument } from '../../src/openapi/document';
import {
	byId,
	multichannelNode,
	NODE_NAME,
	NODE_TYPE,
	startService,
	type TestService,
} from '../support/nodes';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let service: TestService;
let instance: { id: string };
beforeAll(async () => {
	service = await startService();
	instance = await service.connectedInstance('Limits');
});
afterAll(async () => await service.close());

const run = (parameters: IDataObject) =>
	runNode(multichannelNode('message', { instanceId: byId(instance.id), ...parameters }), {
		credentials: service.credentials,
	});
const outboundCount = () =>
	service.sandbox.store.all('messages', (message) => message.direction === 'outbound').length;

describe('the counts of the contract', () => {
	const schemas = (buildOpenApiDocument() as Json).components.schemas;
	let description: INodeTypeDescription;
	beforeAll(async () => {
		description = ((await loadPackage()).nodeTypes[NODE_TYPE] as INodeType).description;
	});
	/** The field of a Message operation, by its name. */
	const field = (operation: string, name: string): INodeProperties | undefined =>
		description.properties.find(
			(property) =>
				property.name === name &&
				property.displayOptions?.show?.resource?.includes('message') &&
				property.displayOptions.show.operation?.includes(operation),
		);

	test.each([
		['sendButtons', 'buttons', schemas.SendButtons.properties.buttons],
		['sendList', 'rows', schemas.SendList.properties.sections.items.properties.rows],
		['sendContactCard', 'contacts', schemas.SendContactCard.properties.contacts],
	])('%s: the %s field allows what the document does', (operation, name, inDocument: Json) => {
		expect(field(operation, name)?.typeOptions).toMatchObject({
			minRequiredFields: inDocument.minItems,
			maxAllowedFields: inDocument.maxItems,
		});
	});

	test("Send and Wait: as many choices as a list's rows, buttons for as many as the document's", () => {
		const rows = schemas.SendList.properties.sections.items.properties.rows;
		const formats = field('sendAndWait', 'choiceFormat')?.options as Array<{ name: string }>;

		expect(field('sendAndWait', 'choices')?.typeOptions?.maxAllowedFields).toBe(rows.maxItems);
		expect(formats.map((format) => format.name)).toEqual([
			`Buttons (Up to ${schemas.SendButtons.properties.buttons.maxItems})`,
			`List (Up to ${rows.maxItems})`,
		]);
	});
});

describe("limits n8n checks in the editor (the fields' minRequiredFields and maxAllowedFields)", () => {
	// n8n shows these on the parameter before a run, and refuses to run the workflow while they stand.
	test.each([
		[
			'four buttons',
			'sendButtons',
			{ buttons: { button: ['A', 'B', 'C', 'D'].map((title) => ({ title })) } },
			'At most 3 fields are allowed.',
		],
		['no button', 'sendButtons', { buttons: {} }, 'At least 1 field is required.'],
		[
			'11 rows',
			'sendList',
			{
				buttonText: 'Pick',
				rows: { row: Array.from({ length: 11 }, (_, n) => ({ title: `Slot ${n}` })) },
			},
			'At most 10 fields are allowed.',
		],
		[
			'11 contact cards',
			'sendContactCard',
			{
				contacts: {
					contact: Array.from({ length: 11 }, (_, n) => ({
						name: `Ana ${n}`,
						phoneNumbers: '+14155550150',
					})),
				},
			},
			'At most 10 fields are allowed.',
		],
	])(
		'%s: the workflow does not run, and nothing is sent',
		async (_, operation, parameters, issue) => {
			const before = outboundCount();
			await expect(
				run({ operation, to: '+14155550144', text: 'Pick one', ...parameters }),
			).rejects.toThrow(`The '${NODE_NAME}' node has issues:\n- ${issue}`);
			expect(outboundCount()).toBe(before);
		},
	);
});
