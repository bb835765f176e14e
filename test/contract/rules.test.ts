/**
 * What the service checks beyond the shape of each field, said in the OpenAPI document so that a client generated
 * from it (or a fuzzer) builds requests the service takes: each rule is checked against the document with a JSON
 * Schema validator and against the schemas the client and the sandbox validate with, which must agree.
 */
import Ajv2020 from 'ajv/dist/2020';

import type { z } from 'zod/v4';

import { api, eachOperation } from '../../src/client/api';
import { ConnectInstance } from '../../src/client/resources/instances';
import { SendList, SendMediaUpload } from '../../src/client/resources/message-sends';
import { ListQuery, DateTimeInput } from '../../src/client/schemas';
import { buildOpenApiDocument } from '../../src/openapi/document';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const document = buildOpenApiDocument() as Json;
const ajv = new Ajv2020({ strict: false, validateFormats: false });
const inDocument = (schema: Json, value: unknown) =>
	ajv.validate({ ...schema, components: document.components }, value);
const component = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The document's verdict and the schema's, side by side. */
const verdicts = (name: string | Json, schema: z.ZodType, value: unknown) => [
	inDocument(typeof name === 'string' ? component(name) : name, value),
	schema.safeParse(value).success,
];

describe('the rules the document states', () => {
	it('describes an upload form a generator can fill: its fields and the file part', () => {
		const form = { to: '+14155550100', mediaType: 'image' };
		const body =
			document.paths['/api/v1/instances/{instanceId}/messages/media/upload'].post.requestBody;
		const schema = body.content['multipart/form-data'].schema;
		expect(inDocument(schema, { ...form, file: 'bytes' })).toBe(true);
		expect(inDocument(schema, form)).toBe(false);
		expect(inDocument(schema, { ...form, file: 'bytes', colour: 'red' })).toBe(false);
		// The fields alone are what the schema of the form checks; the file part is checked beside it.
		expect(SendMediaUpload.safeParse(form).success).toBe(true);
	});

	it('requires a phone number for a pairing code', () => {
		expect(verdicts('ConnectInstance', ConnectInstance, { method: 'pairing_code' })).toEqual([
			false,
			false,
		]);
		const withNumber = { method: 'pairing_code', phoneNumber: '+14155550100' };
		expect(verdicts('ConnectInstance', ConnectInstance, withNumber)).toEqual([true, true]);
		expect(verdicts('ConnectInstance', ConnectInstance, { method: 'qr' })).toEqual([true, true]);
	});

	it('requires a title on each section of a list with several, and says the rules it cannot express', () => {
		const list = (sections: unknown[]) => ({
			to: '+14155550100',
			text: 'Pick',
			buttonText: 'See',
			sections,
		});
		const untitled = { rows: [{ id: 'b', title: 'B' }] };
		const titled = { title: 'A', rows: [{ id: 'a', title: 'A' }] };
		expect(verdicts('SendList', SendList, list([titled, untitled]))).toEqual([false, false]);
		expect(verdicts('SendList', SendList, list([titled, { ...untitled, title: 'B' }]))).toEqual([
			true,
			true,
		]);
		expect(verdicts('SendList', SendList, list([untitled]))).toEqual([true, true]);
		expect(document.components.schemas.SendList.description).toMatch(
			/at most 10 rows in all sections.*ids of all rows must differ/i,
		);
	});

	it.each([
		['CreateMessagingWebhook', 'messaging', 'instanceIds', 'linkIds'],
		['CreateLinkWebhook', 'shortLink', 'linkIds', 'instanceIds'],
	])('gives %s only the filter of its surface', (name, surface, own, other) => {
		const create = (filters: Json) => ({ url: 'http://127.0.0.1:9/hook', events: ['*'], filters });
		const schema = (surface === 'messaging' ? api.workspace : api.shortLink).webhooks.create.body;
		expect(verdicts(name, schema, create({ [own]: ['x'] }))).toEqual([true, true]);
		expect(verdicts(name, schema, create({ [other]: ['x'] }))).toEqual([false, false]);
	});

	it('gives automation webhooks no filter', () => {
		const schema = api.automation.webhooks.create.body;
		const create = (filters: Json) => ({ url: 'http://127.0.0.1:9/hook', events: ['*'], filters });
		expect(verdicts('CreateAutomationWebhook', schema, create({}))).toEqual([true, true]);
		for (const name of ['instanceIds', 'linkIds'])
			expect(verdicts('CreateAutomationWebhook', schema, create({ [name]: ['x'] }))).toEqual([
				false,
				false,
			]);
	});

	it.each([
		['2030-01-01T10:00:00Z', true],
		['2030-01-01T10:00:00.123+14:00', true],
		['2030-01-01T10:00:00-23:59', true],
		['2030-01-01T10:00Z', false],
		['2030-01-01T10:00:00+24:00', false],
		['2030-01-01T10:00:00+01:60', false],
		['2030-01-01T10:00:60Z', false],
		['2030-01-01 10:00:00Z', false],
	])('takes the date-time %s: %s, with seconds', (value, taken) => {
		const schema = document.components.schemas.CreateLink.properties.expiresAt;
		expect(schema.format).toBe('date-time');
		expect(verdicts(schema, DateTimeInput, value)).toEqual([taken, taken]);
	});

	it('says what a cursor looks like', () => {
		const cursor = document.paths['/api/v1/instances'].get.parameters.find(
			(parameter: Json) => parameter.name === 'cursor',
		).schema;
		expect(verdicts(cursor, ListQuery.shape.cursor, 'eyJhZnRlciI6Imkx_-')).toEqual([true, true]);
		expect(verdicts(cursor, ListQuery.shape.cursor, 'not a cursor')).toEqual([false, false]);
	});

	it('documents 405 (with Allow) on every path, and the download as the file types it is', () => {
		expect(document.components.responses.MethodNotAllowed.headers.Allow).toBeDefined();
		for (const { operation } of eachOperation(api)) {
			const entry = document.paths[`/api/v1${operation.path}`][operation.method.toLowerCase()];
			expect(entry.responses['405']).toEqual({ $ref: '#/components/responses/MethodNotAllowed' });
		}
		const download = document.paths['/api/v1/messages/{messageId}/media'].get.responses['200'];
		expect(Object.keys(download.content)).toEqual(
			expect.arrayContaining(['image/*', 'video/*', 'audio/*', 'application/*', 'text/*']),
		);
		expect(download.content['*/*']).toBeUndefined();
	});
});
