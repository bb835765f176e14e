/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n */
/**
 * A property-based fuzz of every operation of docs/openapi.json against the sandbox on loopback: requests built
 * from the document alone (valid ones, and ones with a field left out, of the wrong kind or unknown, bad query
 * values, bad JSON, no key or another surface's key), each answer checked against the document: never a 5xx,
 * a status the operation documents, a body its schema for that status accepts, a file of a documented type.
 *
 * Seeded and bounded (FUZZ_SEED, FUZZ_RUNS to change them); a failure prints the seed and the request. Every URL
 * it sends is one of its own loopback sink, so no made-up host is ever looked up or contacted.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import Ajv2020 from 'ajv/dist/2020';
import fc from 'fast-check';
import { Agent, FormData, request } from 'undici';

import { OPENAPI_PATH } from '../../dev/openapi/generate';
import { closeServer, listenOnLoopback } from '../../dev/loopback';
import type { Sandbox } from '../../sandbox/server';
import { connectedInstance, startTestSandbox } from '../support/sandbox';
import { mutated, resolve, valid, wrongValue, type Schema } from '../support/json-schema-arbitrary';
import { harvest, knownValues, type Pools } from '../support/fuzz-pools';

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const document = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as Schema;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
const checks = new Map<string, ReturnType<typeof ajv.compile>>();

const operations = Object.entries(document.paths as Record<string, Schema>).flatMap(
	([path, methods]) =>
		Object.entries(methods).map(([method, entry]) => ({ path, method, entry: entry as Schema })),
);

type Variant = 'valid' | 'body' | 'query' | 'json' | 'nokey' | 'otherkey';

interface FuzzRequest {
	variant: Variant;
	params: Record<string, string>;
	query: Record<string, unknown>;
	body: unknown;
	idempotencyKey?: string;
}

const agent = new Agent();
let sandbox: Sandbox;
let sink: Server;
let sinkUrl = '';
const pools: Pools = {};

beforeAll(async () => {
	// A sink for every URL the fuzz sends: deliveries and answers get 200, a media URL a small PNG.
	sink = createServer((req, res) => {
		req.resume();
		if (req.method === 'GET') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
		else res.writeHead(200).end();
	});
	sinkUrl = await listenOnLoopback(sink, 0);
	sandbox = await startTestSandbox({ rateLimit: false });
	const instance = await connectedInstance(sandbox, 'Fuzz', '+14155550190');
	pools.instanceId = [instance.id];
	pools.modelId = ((await call('GET', '/api/v1/models', 'workspace')).body as Schema).data.map(
		(model: Schema) => model.id,
	);
}, 60_000);

afterAll(async () => {
	await agent.close();
	await sandbox?.close();
	if (sink) await closeServer(sink);
});

const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
	'base64',
);

const KEYS: Record<string, keyof NonNullable<Sandbox['keys']>> = {
	workspaceKey: 'workspace',
	shortLinkKey: 'shortLink',
	automationKey: 'automation',
};

async function call(
	method: string,
	path: string,
	key: keyof NonNullable<Sandbox['keys']> | undefined,
	options: { body?: string | FormData; headers?: Record<string, string> } = {},
) {
	const headers: Record<string, string> = { ...options.headers };
	const keys = sandbox.keys as NonNullable<Sandbox['keys']>;
	if (key) headers.authorization = `Bearer ${keys[key]}`;
	const response = await request(`${sandbox.baseUrl}${path}`, {
		method: method.toUpperCase() as 'GET',
		headers,
		body: options.body,
		// A connection per request, of the fuzz's own: a kept-alive one that the server closes as it is reused is an
		// ECONNRESET of the test's own making (Node's keep-alive race) on a loaded machine.
		dispatcher: agent,
		reset: true,
	});
	const raw = Buffer.from(await response.body.arrayBuffer());
	const type = String(response.headers['content-type'] ?? '');
	let body: unknown = raw;
	if (type.startsWith('application/json')) body = JSON.parse(raw.toString('utf8'));
	return { status: response.statusCode, type, body, size: raw.length };
}

function requestArbitrary(path: string, entry: Schema): fc.Arbitrary<FuzzRequest> {
	const context = {
		document,
		loopbackUrl: fc.webPath().map((tail) => `${sinkUrl}/fuzz${tail.replace(/[?#]/g, '')}`),
		known: (name: string) => knownValues(pools, name),
	};
	const parameters = (entry.parameters ?? []).map((parameter: Schema) =>
		resolve(document, parameter),
	);
	const params: Record<string, fc.Arbitrary<string>> = {};
	const query: Record<string, fc.Arbitrary<unknown>> = {};
	const required: string[] = [];
	for (const parameter of parameters) {
		if (parameter.in === 'path') {
			const known = knownValues(pools, parameter.name) as fc.Arbitrary<string> | undefined;
			const made = fc.string({ minLength: 1, maxLength: 30 });
			params[parameter.name] = known ? fc.oneof({ arbitrary: known, weight: 4 }, made) : made;
		} else if (parameter.in === 'query') {
			query[parameter.name] = valid(parameter.schema, context);
			if (parameter.required) required.push(parameter.name);
		}
	}
	const bodySchema = Object.values(entry.requestBody?.content ?? {})[0] as Schema | undefined;
	const validBody = bodySchema ? valid(bodySchema.schema, context) : fc.constant(undefined);
	return fc
		.constantFrom<Variant>('valid', 'valid', 'valid', 'body', 'query', 'json', 'nokey', 'otherkey')
		.chain((variant) =>
			fc.record({
				variant: fc.constant(variant),
				params: fc.record(params),
				query:
					variant === 'query'
						? fc.dictionary(fc.constantFrom(...Object.keys(query), 'unknown'), wrongValue, {
								minKeys: 1,
								maxKeys: 2,
							})
						: fc.record(query, { requiredKeys: required }),
				body:
					variant === 'body' && bodySchema
						? mutated(validBody, bodySchema.schema, context)
						: validBody,
				idempotencyKey: fc.option(fc.stringMatching(/^[\w-]{1,40}$/), { nil: undefined }),
			}),
		);
}

function queryString(query: Record<string, unknown>) {
	const search = new URLSearchParams();
	for (const [name, value] of Object.entries(query))
		if (value !== undefined)
			search.set(name, typeof value === 'string' ? value : JSON.stringify(value));
	const text = search.toString();
	return text ? `?${text}` : '';
}

/** The multipart form of an upload: its fields as text, and a PNG as the file part when the body has one. */
function form(body: unknown): FormData {
	const data = new FormData();
	for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
		if (name === 'file') data.set('file', new Blob([PNG], { type: 'image/png' }), 'pixel.png');
		else if (value !== undefined)
			data.set(name, typeof value === 'string' ? value : JSON.stringify(value));
	}
	return data;
}

async function send(path: string, method: string, entry: Schema, fuzz: FuzzRequest) {
	const filled = path.replace(/\{(\w+)\}/g, (_, name: string) =>
		encodeURIComponent(fuzz.params[name]),
	);
	const scheme = Object.keys(entry.security?.[0] ?? {})[0];
	const own = scheme ? KEYS[scheme] : undefined;
	const key =
		fuzz.variant === 'nokey'
			? undefined
			: fuzz.variant === 'otherkey' && own
				? (Object.values(KEYS).find((kind) => kind !== own) as typeof own)
				: own;
	const headers: Record<string, string> = {};
	if (fuzz.idempotencyKey) headers['idempotency-key'] = fuzz.idempotencyKey;
	let body: string | FormData | undefined;
	const content = Object.keys(entry.requestBody?.content ?? {})[0];
	if (content === 'multipart/form-data') body = form(fuzz.body);
	else if (content) {
		headers['content-type'] = 'application/json';
		body = fuzz.variant === 'json' ? '{"to": [' : JSON.stringify(fuzz.body ?? {});
	}
	return call(method, `${filled}${queryString(fuzz.query)}`, key, { body, headers });
}

/** What is wrong with an answer by the document; undefined when nothing is. */
function problem(
	path: string,
	method: string,
	entry: Schema,
	answer: Awaited<ReturnType<typeof call>>,
) {
	const { status } = answer;
	if (status >= 500) return `a ${status}`;
	const documented = entry.responses[String(status)] ?? entry.responses[`${String(status)[0]}XX`];
	const response = documented
		? resolve(document, documented)
		: resolve(document, entry.responses.default ?? {});
	if (!documented && !entry.responses.default) return `status ${status} is not documented`;
	const content = (response.content ?? {}) as Record<string, Schema>;
	if (Object.keys(content).length === 0)
		return answer.size === 0 || status === 302 ? undefined : 'a body where none is documented';
	const json = content['application/json'];
	if (!json) {
		const family = `${answer.type.split('/')[0]}/*`;
		return content[family] ? undefined : `content type ${answer.type} is not documented`;
	}
	if (!answer.type.startsWith('application/json')) return `content type ${answer.type}, not JSON`;
	const key = `${method} ${path} ${status}`;
	if (!checks.has(key))
		checks.set(key, ajv.compile({ ...json.schema, components: document.components }));
	const check = checks.get(key) as ReturnType<typeof ajv.compile>;
	return check(answer.body) ? undefined : `body does not match: ${ajv.errorsText(check.errors)}`;
}

describe('every operation of the document, fuzzed against the sandbox', () => {
	it.each(
		operations.map((operation) => [
			`${operation.method.toUpperCase()} ${operation.path}`,
			operation,
		]),
	)(
		'%s',
		async (_, { path, method, entry }) => {
			await fc.assert(
				fc.asyncProperty(requestArbitrary(path, entry), async (fuzz) => {
					const answer = await send(path, method, entry, fuzz);
					const wrong = problem(path, method, entry, answer);
					if (wrong) {
						throw new Error(
							`${method.toUpperCase()} ${path}: ${wrong}\n(seed ${SEED}; answer ${JSON.stringify(answer.body).slice(0, 500)})`,
						);
					}
					harvest(pools, path, method, answer);
				}),
				{ seed: SEED, numRuns: RUNS, endOnFailure: true },
			);
		},
		60_000,
	);

	it('leaves the sandbox answering', async () => {
		expect((await call('GET', '/api/v1/models', 'workspace')).status).toBe(200);
	});
});
