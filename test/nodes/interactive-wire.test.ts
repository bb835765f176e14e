/**
 * Send Buttons, Send List, Edit and Send Typing of the Multichannel node on the wire: nock pins each
 * request. The same operations against the sandbox are in interactive.test.ts.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../dev/harness';
import { nockOnly } from '../support/client';
import { byId, expectNoSecrets, multichannelNode, NODE_NAME } from '../support/nodes';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

describe('on the wire (nock)', () => {
	const BASE_URL = 'http://127.0.0.1:8790';
	const API_KEY = 'mcw_test_wire_interactive';
	const credentials = { multichannelApi: { baseUrl: BASE_URL, apiKey: API_KEY } };
	const wire = (parameters: IDataObject) =>
		runNode(multichannelNode('message', { instanceId: byId('inst_1'), ...parameters }), {
			credentials,
		});

	nockOnly();

	/** Answers one request to `path` with `answer`, recording its method, headers and body. */
	function expectRequest(method: 'post' | 'patch', path: string, answer: IDataObject) {
		const seen: Array<{ headers: IDataObject; body: unknown }> = [];
		const scope = nock(BASE_URL);
		scope[method](path).reply(function (_uri, body) {
			seen.push({ headers: this.req.headers, body });
			return [method === 'post' && !path.endsWith('/typing') ? 201 : 200, answer];
		});
		return seen;
	}

	test('Send Buttons', async () => {
		const seen = expectRequest('post', '/api/v1/instances/inst_1/messages/buttons', {
			id: 'msg_1',
		});
		const result = await wire({
			operation: 'sendButtons',
			to: '+14155550123',
			text: 'Confirm?',
			buttons: { button: [{ title: 'Yes', id: 'y' }, { title: 'No' }] },
			options: { header: 'Order 1042', quotedMessageId: 'msg_0' },
		});

		expect(result.error).toBeUndefined();
		expect(seen).toEqual([
			{
				headers: expect.objectContaining({
					authorization: `Bearer ${API_KEY}`,
					'content-type': 'application/json',
					'idempotency-key': expect.stringMatching(/^n8n-[0-9a-f]{64}$/),
				}),
				body: {
					to: '+14155550123',
					text: 'Confirm?',
					header: 'Order 1042',
					buttons: [
						{ id: 'y', title: 'Yes' },
						{ id: 'No', title: 'No' },
					],
					quotedMessageId: 'msg_0',
				},
			},
		]);
		expectNoSecrets(result, [API_KEY]);
	});

	test('Send List', async () => {
		const seen = expectRequest('post', '/api/v1/instances/inst_1/messages/list', { id: 'msg_2' });
		const result = await wire({
			operation: 'sendList',
			to: '+14155550123',
			text: 'Choose',
			buttonText: 'Open',
			rows: {
				row: [
					{ title: 'One', id: '1', description: 'first' },
					{ title: 'Two', id: '2' },
				],
			},
			options: { footer: 'Thanks' },
		});

		expect(result.error).toBeUndefined();
		expect(seen).toEqual([
			{
				headers: expect.objectContaining({ 'idempotency-key': expect.any(String) }),
				body: {
					to: '+14155550123',
					text: 'Choose',
					footer: 'Thanks',
					buttonText: 'Open',
					sections: [
						{
							rows: [
								{ id: '1', title: 'One', description: 'first' },
								{ id: '2', title: 'Two' },
							],
						},
					],
				},
			},
		]);
	});

	test('Edit', async () => {
		const seen = expectRequest('patch', '/api/v1/instances/inst_1/messages/msg_7', { id: 'msg_7' });
		const result = await wire({ operation: 'edit', messageId: ' msg_7 ', text: 'Fixed typo' });

		expect(result.error).toBeUndefined();
		expect(seen).toEqual([
			{
				headers: expect.not.objectContaining({ 'idempotency-key': expect.anything() }),
				body: { text: 'Fixed typo' },
			},
		]);
	});

	test('Send Typing', async () => {
		const seen = expectRequest('post', '/api/v1/instances/inst_1/typing', {
			instanceId: 'inst_1',
			chatId: '14155550123@s.whatsapp.net',
			to: '+14155550123',
			state: 'composing',
			until: '2026-11-23T07:00:05.000Z',
		});
		const result = await wire({ operation: 'sendTyping', to: '+14155550123', seconds: 5 });

		expect(result.error).toBeUndefined();
		expect(seen).toEqual([
			{
				headers: expect.objectContaining({ authorization: `Bearer ${API_KEY}` }),
				body: { to: '+14155550123', state: 'composing', seconds: 5 },
			},
		]);
		expect(result.json(NODE_NAME)[0]).toMatchObject({ state: 'composing' });
	});
});
