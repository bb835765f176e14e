/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a made-up key, which the tests expect on the wire */
/**
 * The three credentials: their fields, and the request "Save" sends, run the way n8n's credentials tester
 * runs it (n8n-core's RoutingNode, with the credential's own authentication), pinned with nock.
 */
import nock from 'nock';

import { loadPackage, testCredential } from '../../dev/harness';
import { nockOnly } from '../support/client';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

const BASE_URL = 'http://127.0.0.1:8787';
const API_KEY = 'mcw_test_9a8b7c6d5e4f';

const KINDS = [
	{ type: 'multichannelApi', path: '/api/v1/models', kind: 'workspace', scope: 'messaging:read' },
	{
		type: 'multichannelShortLinkApi',
		path: '/api/v1/links?limit=1',
		kind: 'short-link',
		scope: 'links:read',
	},
	{
		type: 'multichannelAutomationApi',
		path: '/api/v1/automation/events?limit=1',
		kind: 'automation',
		scope: 'automation:read',
	},
];

nockOnly();

describe.each(KINDS)('$type', ({ type, path, kind, scope }) => {
	test('has a base URL defaulting to the sandbox and a password field for the key', async () => {
		const { credentialTypes } = await loadPackage();
		const credential = credentialTypes[type];

		expect(credential.properties).toEqual([
			expect.objectContaining({ name: 'keyNotice', type: 'notice' }),
			expect.objectContaining({
				name: 'baseUrl',
				type: 'string',
				default: BASE_URL,
				required: true,
			}),
			expect.objectContaining({
				name: 'apiKey',
				type: 'string',
				typeOptions: { password: true },
				required: true,
			}),
			// The workspace key's credential also has the Default Country of its numbers, empty by default.
			...(type === 'multichannelApi'
				? [expect.objectContaining({ name: 'defaultCountry', type: 'options', default: '' })]
				: []),
		]);
		// A function, so that n8n evaluates no expression for it on each request (docs/n8n-findings.md).
		expect(typeof credential.authenticate).toBe('function');
		expect(credential.documentationUrl).toMatch(/^https:\/\//);
	});

	test.each([BASE_URL, `${BASE_URL}/`, `${BASE_URL}/api/v1`, `${BASE_URL}/api/v1/`])(
		'"Save" with base URL %s sends one authenticated GET to the same endpoint',
		async (baseUrl) => {
			const seen: Array<{ path: string; authorization: unknown; accept: unknown }> = [];
			const service = nock(BASE_URL);
			service.on('request', (request: { path: string; headers: Record<string, unknown> }) =>
				seen.push({
					path: request.path,
					authorization: request.headers.authorization,
					accept: request.headers.accept,
				}),
			);
			service.get(path).reply(200, { data: [] });

			const result = await testCredential(type, { baseUrl, apiKey: API_KEY });

			expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
			expect(seen).toEqual([
				{ path, authorization: `Bearer ${API_KEY}`, accept: 'application/json' },
			]);
		},
	);

	test('a rejected key says so plainly and points at the console', async () => {
		// n8n-core sends a request answered 401 a second time, after giving the credential a chance to refresh.
		nock(BASE_URL)
			.get(path)
			.times(2)
			.reply(401, { error: { code: 'invalid_api_key', message: 'Unknown key' } });

		const result = await testCredential(type, { baseUrl: BASE_URL, apiKey: API_KEY });

		expect(result.status).toBe('Error');
		expect(result.message).toBe(
			`The API key was rejected. Check that it was copied whole, or generate a new ${kind} key in the Multichannel console: /user/api on the host of the Base URL.`,
		);
	});

	test('an unreachable base URL: n8n shows the system code, and the Base URL field says what it means', async () => {
		nock(BASE_URL)
			.get(path)
			.replyWithError(
				Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8787'), { code: 'ECONNREFUSED' }),
			);

		const result = await testCredential(type, { baseUrl: BASE_URL, apiKey: API_KEY });

		// What n8n's credentials tester answers for a request without an answer: the code alone.
		expect(result).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
		const { credentialTypes } = await loadPackage();
		const baseUrl = credentialTypes[type].properties.find(
			(property) => property.name === 'baseUrl',
		);
		expect(baseUrl?.hint).toMatch(/ECONNREFUSED.*ENOTFOUND.*could not reach/i);
		// Where a key comes from, in a notice above the fields (e2e/editor.test.mjs sees it stay when the key is
		// left empty), not only in a tooltip.
		const notice = credentialTypes[type].properties.find((property) => property.type === 'notice');
		// It names no address of its own: the sandbox may run on another port than 8787's.
		expect(notice?.displayName).toContain('the address in Base URL below with /user/api added');
		expect(notice?.displayName).not.toMatch(/127\.0\.0\.1|8787/);
		expect(notice?.displayName).toContain(`make a new ${kind} key`);
	});

	test('a key of another kind or without the scope is told apart from a rejected one', async () => {
		nock(BASE_URL)
			.get(path)
			.reply(403, { error: { code: 'insufficient_scope', message: 'No' } });

		const result = await testCredential(type, { baseUrl: BASE_URL, apiKey: API_KEY });

		expect(result.status).toBe('Error');
		expect(result.message).toContain(`it is not a ${kind} key, or it lacks the ${scope} scope`);
	});
});
