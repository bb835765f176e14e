/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code runs in plain Node, never inside n8n */
/**
 * A local HTTP server standing in for n8n's webhook endpoint. It reads the raw body (n8n keeps it as
 * `req.rawBody`), runs the trigger's `webhook()` (triggers.ts) and answers as n8n's webhook helpers do
 * (`executeWebhook` in n8n's cli, 2.40.7): nothing when the node answered itself (`noWebhookResponse`), 200 with
 * the node's `webhookResponse` when it returned no data, and when it did, an execution and the answer of the
 * `onReceived` response mode (`onReceivedBody`). Headers the node set on the response go out with the answer.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

import type { INodeExecutionData, IWebhookResponseData } from 'n8n-workflow';

import { closeServer, listenOnLoopback } from '../loopback';

/** What the endpoint needs of a trigger under test (triggers.ts): its webhook id, and its `webhook()` run. */
export interface EndpointTrigger {
	readonly node: { webhookId?: string };
	runWebhook(
		req: IncomingMessage,
		res: ServerResponse,
		test: boolean,
		reads: { credentials: string[]; parameters: string[] },
	): Promise<IWebhookResponseData>;
	/** The `responseData` of the node's webhook description. */
	responseData(): Promise<unknown>;
}

/** What n8n's endpoint did with one request. */
export interface Delivery {
	trigger: EndpointTrigger;
	test: boolean;
	rawBody: string;
	headers: IncomingMessage['headers'];
	/** The status n8n's endpoint (or the node itself) answered. */
	status: number;
	/** The headers of the answer, lower-case names. */
	responseHeaders: Record<string, unknown>;
	responseBody: string;
	/** The items the node produced: an execution started. */
	items?: INodeExecutionData[];
	/** What the node threw, if it did. */
	error?: unknown;
	/** The credentials the call read (their type names), one entry per read. */
	credentialReads: string[];
	/** The node parameters the call read (their names, `options.onlyData`), one entry per read. */
	parameterReads: string[];
}

/**
 * What n8n answers when `webhook()` returned data and the response mode is `onReceived` (`getResponseOnReceived`
 * in n8n's webhook-helpers): the description's `responseData` when it has one (`firstEntryJson` when it has
 * none, answered as that text), else the node's `webhookResponse`, else "Workflow was started".
 */
function onReceivedBody(responseData: unknown, result: { webhookResponse?: unknown }): unknown {
	const data = responseData ?? 'firstEntryJson';
	if (data === 'noData') return undefined;
	if (data) return data;
	return result.webhookResponse ?? { message: 'Workflow was started' };
}

/** The local HTTP server standing in for n8n's `/webhook` and `/webhook-test` endpoints. */
export class N8nEndpoint {
	url = '';
	readonly deliveries: Delivery[] = [];
	/**
	 * The status to answer after an execution started instead of 200: lets a test lose n8n's answer, so that the
	 * service delivers the same event again.
	 */
	answerAfterExecution: (delivery: Delivery) => number = () => 200;
	private server: Server | undefined;
	private readonly triggers = new Map<string, EndpointTrigger>();

	async start(): Promise<this> {
		this.server = createServer((req, res) => {
			void this.handle(req, res);
		});
		this.url = await listenOnLoopback(this.server);
		return this;
	}

	register(trigger: EndpointTrigger) {
		this.triggers.set(trigger.node.webhookId ?? '', trigger);
	}

	of(trigger: EndpointTrigger): Delivery[] {
		return this.deliveries.filter((delivery) => delivery.trigger === trigger);
	}

	/** The deliveries to a trigger that started an execution. */
	executions(trigger: EndpointTrigger): Delivery[] {
		return this.of(trigger).filter((delivery) => delivery.items !== undefined);
	}

	private async handle(req: IncomingMessage, res: ServerResponse) {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const rawBody = Buffer.concat(chunks);
		// `/webhook/<webhookId>/webhook` or `/webhook-test/<webhookId>/webhook`
		const match = /^\/(webhook|webhook-test)\/([^/]+)\/webhook$/.exec(req.url ?? '');
		const trigger = match ? this.triggers.get(match[2]) : undefined;
		if (!match || !trigger || req.method !== 'POST') {
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ code: 404, message: 'The requested webhook is not registered' }));
			return;
		}
		const test = match[1] === 'webhook-test';
		// What n8n's body parser leaves on the request.
		req.rawBody = rawBody;
		let body: unknown = {};
		try {
			body = JSON.parse(rawBody.toString('utf8'));
		} catch {
			body = {};
		}
		(req as IncomingMessage & { body: unknown }).body = body;

		const delivery: Delivery = {
			trigger,
			test,
			rawBody: rawBody.toString('utf8'),
			headers: req.headers,
			status: 0,
			responseHeaders: {},
			responseBody: '',
			credentialReads: [],
			parameterReads: [],
		};
		const written: Buffer[] = [];
		const end = res.end.bind(res);
		res.end = ((chunk?: unknown, ...rest: unknown[]) => {
			if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) written.push(Buffer.from(chunk));
			return end(chunk as never, ...(rest as []));
		}) as typeof res.end;

		try {
			const result = await trigger.runWebhook(req, res, test, {
				credentials: delivery.credentialReads,
				parameters: delivery.parameterReads,
			});
			if (result.noWebhookResponse) {
				if (!res.writableEnded) res.end();
			} else if (result.workflowData) {
				delivery.items = result.workflowData[0];
				const body = onReceivedBody(await trigger.responseData(), result);
				res.writeHead(this.answerAfterExecution(delivery), { 'content-type': 'application/json' });
				res.end(typeof body === 'string' ? body : JSON.stringify(body ?? ''));
			} else {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify(result.webhookResponse ?? { message: 'Webhook call received' }));
			}
		} catch (error) {
			delivery.error = error;
			if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
			if (!res.writableEnded) res.end(JSON.stringify({ message: (error as Error).message }));
		}
		delivery.status = res.statusCode;
		delivery.responseHeaders = res.getHeaders();
		delivery.responseBody = Buffer.concat(written).toString('utf8');
		this.deliveries.push(delivery);
	}

	async close(): Promise<void> {
		const server = this.server;
		if (!server) return;
		this.server = undefined;
		await closeServer(server);
	}
}
