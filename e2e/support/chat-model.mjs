// A scripted OpenAI-compatible chat model for the AI agent test (test support only, never the sandbox): it
// answers `POST /v1/chat/completions` on a loopback port with what the test's script says for each request, as
// one JSON answer or as server-sent events when the request asks to stream, and records every request.
import { createServer } from 'node:http';

import { createCredential } from '../../dev/stack/credentials.mjs';

/**
 * Starts the model. `script(request, turn)` gets the parsed request body and its 0-based number and returns
 * either `{ toolCall: { name, args } }` or `{ text }`.
 */
export async function startChatModel(script) {
	const requests = [];
	const server = createServer((request, response) => {
		const chunks = [];
		request.on('data', (chunk) => chunks.push(chunk));
		request.on('end', () => {
			let body;
			try {
				body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
			} catch {
				body = undefined;
			}
			const seen = { method: request.method, path: request.url, headers: request.headers, body };
			requests.push(seen);
			if (request.method !== 'POST' || !request.url.endsWith('/chat/completions') || !body) {
				response.writeHead(404, { 'content-type': 'application/json' });
				response.end(
					JSON.stringify({ error: { message: `no ${request.method} ${request.url} here` } }),
				);
				return;
			}
			let answer;
			try {
				answer = script(body, requests.filter((entry) => entry.body?.messages).length - 1);
			} catch (error) {
				response.writeHead(500, { 'content-type': 'application/json' });
				response.end(JSON.stringify({ error: { message: String(error?.message ?? error) } }));
				return;
			}
			const message = answer.toolCall
				? {
						role: 'assistant',
						content: null,
						tool_calls: [
							{
								id: `call_${requests.length}`,
								type: 'function',
								function: {
									name: answer.toolCall.name,
									arguments: JSON.stringify(answer.toolCall.args),
								},
							},
						],
					}
				: { role: 'assistant', content: answer.text };
			const finish = answer.toolCall ? 'tool_calls' : 'stop';
			const base = { id: `chatcmpl-${requests.length}`, created: 1, model: body.model };
			const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
			if (body.stream) {
				response.writeHead(200, { 'content-type': 'text/event-stream' });
				const delta = answer.toolCall
					? {
							role: 'assistant',
							tool_calls: message.tool_calls.map((call, index) => ({ index, ...call })),
						}
					: message;
				for (const choice of [
					{ index: 0, delta, finish_reason: null },
					{ index: 0, delta: {}, finish_reason: finish },
				])
					response.write(
						`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [choice] })}\n\n`,
					);
				response.end('data: [DONE]\n\n');
				return;
			}
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end(
				JSON.stringify({
					...base,
					object: 'chat.completion',
					choices: [{ index: 0, message, finish_reason: finish }],
					usage,
				}),
			);
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		/** The base URL an OpenAI credential takes. */
		url: `http://127.0.0.1:${server.address().port}/v1`,
		requests,
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

/**
 * What a person does after importing the AI agent example: an OpenAI credential whose Base URL is the scripted
 * `model`, picked in the workflow's OpenAI Chat Model node (n8n's public API: the workflow read, changed, put back).
 */
export async function pickScriptedModel(ctx, workflowId, { model, apiKey }) {
	const openAi = await createCredential(ctx.stack.n8n.client, {
		name: 'OpenAI (scripted e2e model)',
		type: 'openAiApi',
		data: { apiKey, url: model.url, header: false },
	});
	const agent = await ctx.api('GET', `/workflows/${workflowId}`);
	for (const node of agent.nodes) {
		if (node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi') {
			node.credentials = { openAiApi: { id: openAi.id, name: openAi.name } };
		}
	}
	const { name, nodes, connections, settings } = agent;
	await ctx.api('PUT', `/workflows/${workflowId}`, {
		name,
		nodes,
		connections,
		settings: { executionOrder: settings?.executionOrder ?? 'v1' },
	});
}
