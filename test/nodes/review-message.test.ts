/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a made-up key of a test */
/**
 * The human review tool's question, as a manager reads it. n8n generates a `…HitlTool` of the node whose Message
 * defaults to a text with `{{ $tool.parameters }}`, which n8n's expressions render as "[object Object]"; the
 * node writes the agent's arguments one per line instead (nodes/Multichannel/actions/message/sendAndWait/review.ts). Run
 * through n8n-core with the tool call as the input item, as n8n's agent hands it over.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../dev/harness';
import { nockOnly } from '../support/client';
import { byId, multichannelNode, registerToolVariant } from '../support/nodes';

afterAll(() => nock.restore());

const BASE_URL = 'http://127.0.0.1:8792';
const credentials = { multichannelApi: { baseUrl: BASE_URL, apiKey: 'mcw_test_review_1234' } };
/** n8n 2.40.7's default Message of a generated human review tool (n8n/dist/tool-generation/hitl-tools.js). */
const N8N_DEFAULT_MESSAGE =
	'=The agent wants to run this tool: {{ $tool.name }}\n\nInput:\n{{ $tool.parameters }}';
const TOOL_CALL = {
	tool: 'refund_order',
	toolParameters: {
		orderId: '1042',
		amount: { value: 120, currency: 'USD' },
		notifyCustomer: true,
		reason: 'Arrived broken',
	},
};

/** Runs the human review tool with this message; answers as the service would; returns the question's text. */
async function questionText(message: string, toolCall: IDataObject = TOOL_CALL): Promise<string> {
	const sent: IDataObject[] = [];
	nock(BASE_URL)
		.post('/api/v1/instances/inst_1/messages/buttons')
		.reply(201, (_uri, body) => {
			sent.push(body as IDataObject);
			return { id: 'msg_q1', instanceId: 'inst_1', chatId: '14155550190@s.whatsapp.net' };
		})
		.post('/api/v1/instances/inst_1/answers')
		.reply(201, (_uri, body) => ({
			id: 'ans_1',
			instanceId: 'inst_1',
			messageId: 'msg_q1',
			chatId: '14155550190@s.whatsapp.net',
			accepts: ['reply'],
			status: 'waiting',
			expiresAt: (body as IDataObject).expiresAt,
			createdAt: new Date().toISOString(),
		}));
	const reviewTool = (await registerToolVariant('HitlTool')).type;
	const result = await runNode(
		{
			...multichannelNode('message', {
				instanceId: byId('inst_1'),
				operation: 'sendAndWait',
				to: '+1 415 555 0190',
				message,
			}),
			type: reviewTool,
		},
		{ credentials, items: [toolCall], executionId: '2001' },
	);
	expect(result.error).toBeUndefined();
	expect(sent).toHaveLength(1);
	return String(sent[0].text);
}

nockOnly();

test('n8n’s default message names the tool and each argument on a line of its own', async () => {
	expect(await questionText(N8N_DEFAULT_MESSAGE)).toBe(
		[
			'The agent wants to run this tool: refund_order',
			'',
			'Input:',
			'orderId: 1042',
			'amount: {"value":120,"currency":"USD"}',
			'notifyCustomer: true',
			'reason: Arrived broken',
		].join('\n'),
	);
});

test('a message of the user’s own that shows the arguments gets them readable too; others are kept as written', async () => {
	expect(await questionText('=May I run {{ $tool.name }}?\n{{ $tool.parameters }}')).toBe(
		[
			'May I run refund_order?',
			'orderId: 1042',
			'amount: {"value":120,"currency":"USD"}',
			'notifyCustomer: true',
			'reason: Arrived broken',
		].join('\n'),
	);
	expect(await questionText('=Refund order {{ $tool.parameters.orderId }}?')).toBe(
		'Refund order 1042?',
	);
});

test('long arguments are cut so that the question still fits an approval message', async () => {
	const text = await questionText(N8N_DEFAULT_MESSAGE, {
		tool: 'send_report',
		toolParameters: { body: 'x'.repeat(3000), attachments: [{ name: 'a'.repeat(400) }] },
	});
	expect([...text].length).toBeLessThanOrEqual(1024);
	expect(text).toContain('attachments: [{"name":"aaaa');
	expect(text).not.toContain('[object Object]');
});
