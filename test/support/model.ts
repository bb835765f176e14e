/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a made-up key, which the tests look for in every output */
/**
 * What the Model resource's test files share: the node on that resource, and the workspace service as nock
 * answers it at the sandbox's address, recording every request.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import type { NodeUnderTest } from '../../dev/harness';
import { multichannelNode } from './nodes';

// nock patches Node's http for the whole worker: undone when the importing test file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

export const BASE_URL = 'http://127.0.0.1:8787';
export const API_KEY = 'mcw_live_4f7d9c2b1a0e8f6d';
export const credentials = { multichannelApi: { baseUrl: BASE_URL, apiKey: API_KEY } };

export const MODELS = [
	{ id: 'gpt-4o-mini', object: 'model', created: 1721172741, owned_by: 'openai' },
	{ id: 'claude-3-5-haiku', object: 'model', created: 1729555200, owned_by: 'anthropic' },
	{ id: 'llama-3.1-8b', object: 'model', created: 1721692800, owned_by: 'meta' },
];

export const modelNode = (parameters: IDataObject, extra: Partial<NodeUnderTest> = {}) =>
	multichannelNode('model', parameters, extra);

export interface SeenRequest {
	method: string;
	url: string;
	authorization?: string;
	accept?: string;
}

/** A nock scope on the sandbox's address that records every request it answers. */
export function service(): { scope: nock.Scope; seen: SeenRequest[] } {
	const seen: SeenRequest[] = [];
	const scope = nock(BASE_URL);
	scope.on('request', (request: { method: string; path: string; headers: IDataObject }) => {
		seen.push({
			method: request.method,
			url: `${BASE_URL}${request.path}`,
			authorization: request.headers.authorization as string | undefined,
			accept: request.headers.accept as string | undefined,
		});
	});
	return { scope, seen };
}

/** The authenticated GET of `path` the node should send. */
export const expected = (path: string, apiKey = API_KEY): SeenRequest => ({
	method: 'GET',
	url: `${BASE_URL}${path}`,
	authorization: `Bearer ${apiKey}`,
	accept: 'application/json',
});

/** The service's error body. */
export const errorBody = (code: string, message: string, requestId = 'req_123') => ({
	error: { code, message, requestId },
});
