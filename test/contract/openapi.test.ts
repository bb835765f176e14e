/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code runs in plain Node, never inside n8n; the ESM-only validator runs in a child process */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Ajv2020 from 'ajv/dist/2020';

import { api, eachOperation } from '../../src/client/api';
import { SendButtons, SendList, SendReaction } from '../../src/client/resources/message-sends';
import { PhoneNumber } from '../../src/client/schemas';
import { z } from '../../src/client/zod';
import { LINK_EVENTS, MESSAGING_EVENTS } from '../../src/client/events';
import { ANSWER_EVENT } from '../../src/client/resources/answers';
import { BATCH_EVENT_TYPES } from '../../src/client/resources/batches';
import { OPENAPI_PATH, renderOpenApi } from '../../dev/openapi/generate';

const VALIDATE = join(__dirname, '..', '..', 'dev', 'openapi', 'validate.mjs');
const validate = (file: string) =>
	execFileSync(process.execPath, [VALIDATE, file], { encoding: 'utf8', stdio: 'pipe' });
const committed = readFileSync(OPENAPI_PATH, 'utf8');
const document = JSON.parse(committed);

describe('the OpenAPI document', () => {
	it('is up to date with the schemas (run `npm run openapi` after changing src/client)', () => {
		expect(committed).toBe(renderOpenApi());
	});

	it('validates as OpenAPI 3.1 with a real validator', () => {
		expect(JSON.parse(validate(OPENAPI_PATH))).toEqual({ valid: true, version: '3.1', errors: [] });
	});

	it('is rejected by the validator when broken, so the check above means something', () => {
		const broken = JSON.stringify({
			...document,
			paths: { '/x': { get: { responses: { 200: { content: 5 } } } } },
		});
		const file = join(tmpdir(), `broken-openapi-${process.pid}.json`);
		writeFileSync(file, broken);
		expect(() => validate(file)).toThrow();
	});

	it('has every operation of the client, with its security, scope and idempotency header', () => {
		for (const { keyKind, resource, name, operation } of eachOperation(api)) {
			const entry = document.paths[`/api/v1${operation.path}`]?.[operation.method.toLowerCase()];
			expect(entry?.operationId).toBe(`${keyKind}.${resource}.${name}`);
			if (operation.signed === 'webhookSecret') {
				expect(entry.security).toEqual([{ webhookSignature: [] }]);
			} else if (operation.signed === 'url') {
				expect(entry.security).toEqual([]);
			} else {
				expect(entry['x-scope']).toBe(operation.scope);
				expect(Object.keys(entry.security[0])).toEqual([`${keyKind}Key`]);
			}
			const refs = (entry.parameters ?? []).map((p: { $ref?: string }) => p.$ref);
			expect(refs.includes('#/components/parameters/IdempotencyKey')).toBe(
				Boolean(operation.creates),
			);
			expect(entry.responses[String(operation.status)]).toBeDefined();
			expect(entry.responses['429']).toEqual({ $ref: '#/components/responses/RateLimited' });
		}
	});

	it("carries the schemas' descriptions (`.describe()`) to parameters and fields; every ID in a path has one", () => {
		// As generated now, so that this fails on its own when the generator loses them.
		const generated = JSON.parse(renderOpenApi());
		let described = 0;
		for (const { operation } of eachOperation(api)) {
			const entry = generated.paths[`/api/v1${operation.path}`][operation.method.toLowerCase()];
			const parameter = (name: string, where: string) =>
				(entry.parameters as Array<{ name: string; in: string; description?: string }>).find(
					(candidate) => candidate.name === name && candidate.in === where,
				);
			for (const [name, schema] of Object.entries(operation.query?.shape ?? {})) {
				const said = z.globalRegistry.get(schema as z.ZodType)?.description;
				expect({ name, description: parameter(name, 'query')?.description }).toEqual({
					name,
					description: said,
				});
				if (said) described++;
			}
			for (const name of Object.keys(operation.params?.shape ?? {})) {
				if (name.endsWith('Id'))
					expect(parameter(name, 'path')?.description).toMatch(/^ID of the [a-z ]+$/);
			}
		}
		expect(described).toBeGreaterThan(20);
		expect(generated.components.schemas.PhoneNumber.description).toBe(
			z.globalRegistry.get(PhoneNumber)?.description,
		);
		expect(generated.components.schemas.SendList.properties.buttonText.description).toBe(
			z.globalRegistry.get(SendList.shape.buttonText)?.description,
		);
	});

	it('describes every parameter of every path: what it filters or names', () => {
		const generated = JSON.parse(renderOpenApi());
		type Parameter = { $ref?: string; name: string; in: string; description?: string };
		const parameters = Object.entries(
			generated.paths as Record<string, Record<string, { parameters?: Parameter[] }>>,
		).flatMap(([path, methods]) =>
			Object.entries(methods).flatMap(([method, entry]) =>
				(entry.parameters ?? [])
					.filter((parameter) => !parameter.$ref)
					.map((parameter) => ({
						at: `${method} ${path} ${parameter.in} ${parameter.name}`,
						parameter,
					})),
			),
		);
		expect(parameters.length).toBeGreaterThan(40);
		expect(
			parameters.filter(({ parameter }) => !parameter.description?.trim()).map(({ at }) => at),
		).toEqual([]);
	});

	it('documents error bodies, rate-limit headers, signatures and every event payload', () => {
		expect(document.components.schemas.Error.properties.error.required).toEqual([
			'code',
			'message',
		]);
		expect(Object.keys(document.components.responses.RateLimited.headers)).toEqual(
			expect.arrayContaining([
				'X-RateLimit-Limit',
				'X-RateLimit-Remaining',
				'X-RateLimit-Reset',
				'Retry-After',
			]),
		);
		expect(document.components.parameters.SignatureHeader.name).toBe('X-Multichannel-Signature');
		expect(Object.keys(document.webhooks).sort()).toEqual(
			[
				...MESSAGING_EVENTS,
				...LINK_EVENTS,
				'automation.*',
				ANSWER_EVENT,
				...Object.values(BATCH_EVENT_TYPES),
			].sort(),
		);
		expect(document.paths['/{code}'].get.responses['302']).toBeDefined();
		expect(document.paths['/{code}'].get.responses['410']).toBeDefined();
	});
});

describe('lengths in the document and the schemas', () => {
	const ajv = new Ajv2020({ strict: false, validateFormats: false });
	const check = (name: string, value: unknown) =>
		ajv.validate({ $ref: `#/components/schemas/${name}`, components: document.components }, value);
	const buttons = (title: string) => ({
		to: '+14155550100',
		text: 'Pick one',
		buttons: [{ id: 'a', title }],
	});
	const reaction = (emoji: string) => ({ to: '+14155550100', messageId: 'msg_1', emoji });

	it.each([
		['a button title', 'SendButtons', SendButtons, buttons, 20],
		['a reaction', 'SendReaction', SendReaction, reaction, 16],
	] as const)(
		'%s counts characters (code points), in the document as in the schemas the client and sandbox use',
		(_, name, schema, body, limit) => {
			const emoji = (count: number) => body('😀'.repeat(count));
			expect(JSON.stringify(document.components.schemas[name])).toContain(`"maxLength":${limit}`);
			expect([check(name, emoji(limit)), schema.safeParse(emoji(limit)).success]).toEqual([
				true,
				true,
			]);
			expect([check(name, emoji(limit + 1)), schema.safeParse(emoji(limit + 1)).success]).toEqual([
				false,
				false,
			]);
		},
	);
});
