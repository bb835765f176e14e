/**
 * The bulk-send jobs (bulkNode, bulkPlain, bulkRaw) and Return All (returnAllNode, returnAllRaw): the same
 * requests to the sandbox, through the node in n8n-core, the smallest n8n node that could send them, or undici.
 */
import { randomUUID } from 'node:crypto';
import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
} from 'n8n-workflow';
import { request } from 'undici';

import { loadPackage, runNode } from '../../dev/harness';

const NODE_TYPE = 'n8n-nodes-multichannel.multichannel';
const NODE_NAME = 'Multichannel';

export interface Target {
	baseUrl: string;
	apiKey: string;
	instanceId: string;
}

export interface BulkJob extends Target {
	items: number;
	concurrency: number;
	/** Starts every text, so that each run sends new messages (and can be counted). */
	tag: string;
	warmup: number;
}

const phoneOf = (index: number) => `+1415557${String(index % 10_000).padStart(4, '0')}`;
const phoneOfOrOne = (index: number) => (index % 10_000 === 0 ? '+14155571111' : phoneOf(index));
const textOf = (tag: string, index: number) => `${tag} message ${index}`;

/** Runs a sending node in a workflow on `items` items (a phone and a text each); how many it output. */
async function sendFromNode(
	node: { type: string; parameters: INodeParameters },
	job: BulkJob,
	items: number,
	tag: string,
): Promise<number> {
	const result = await runNode(
		{ ...node, name: NODE_NAME },
		{
			credentials: { multichannelApi: { baseUrl: job.baseUrl, apiKey: job.apiKey } },
			items: Array.from({ length: items }, (_, index) => ({
				phone: phoneOfOrOne(index),
				text: textOf(tag, index),
			})),
		},
	);
	if (result.error) throw new Error(`The workflow failed: ${result.error.message}`);
	return result.output(NODE_NAME).length;
}

export async function bulkNode(job: BulkJob, items: number, tag: string): Promise<number> {
	const parameters = {
		resource: 'message',
		operation: 'sendText',
		instanceId: { __rl: true, mode: 'id', value: job.instanceId },
		to: '={{ $json.phone }}',
		text: '={{ $json.text }}',
		options: { concurrency: job.concurrency },
	};
	return await sendFromNode({ type: NODE_TYPE, parameters }, job, items, tag);
}

const PLAIN_LOOP_TYPE = 'bench.plainLoop';

/** The least an n8n node can do to send the texts: read its two expressions, send through n8n's helper. */
class PlainLoop implements INodeType {
	description = {
		displayName: 'Plain Loop',
		name: 'plainLoop',
		group: ['output'],
		version: 1,
		description: 'Sends each item with httpRequestWithAuthentication, N at a time',
		defaults: { name: 'Plain Loop' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'multichannelApi', required: true }],
		properties: [
			{ displayName: 'URL', name: 'url', type: 'string', default: '' },
			{ displayName: 'To', name: 'to', type: 'string', default: '' },
			{ displayName: 'Text', name: 'text', type: 'string', default: '' },
			{ displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 1 },
		],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const url = this.getNodeParameter('url', 0) as string;
		const output: INodeExecutionData[] = new Array(items.length);
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const index = next++;
				const body = JSON.stringify({
					to: this.getNodeParameter('to', index) as string,
					text: this.getNodeParameter('text', index) as string,
				});
				const options = {
					method: 'POST' as const,
					url,
					headers: {
						Accept: 'application/json',
						'Content-Type': 'application/json',
						'Idempotency-Key': randomUUID(),
					},
					body,
					encoding: 'text' as const,
					json: false,
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
				};
				const response = (await this.helpers.httpRequestWithAuthentication.call(
					this,
					'multichannelApi',
					options,
				)) as { statusCode: number; body: string };
				if (response.statusCode !== 201) throw new Error(`HTTP ${response.statusCode}`);
				output[index] = {
					json: { id: (JSON.parse(response.body) as { id: string }).id },
					pairedItem: { item: index },
				};
			}
		};
		const concurrency = this.getNodeParameter('concurrency', 0) as number;
		await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
		return [output];
	}
}

export async function bulkPlain(job: BulkJob, items: number, tag: string): Promise<number> {
	const pkg = await loadPackage();
	pkg.nodeTypes[PLAIN_LOOP_TYPE] ??= new PlainLoop();
	const parameters = {
		url: `${job.baseUrl}/api/v1/instances/${encodeURIComponent(job.instanceId)}/messages/text`,
		to: '={{ $json.phone }}',
		text: '={{ $json.text }}',
		concurrency: job.concurrency,
	};
	return await sendFromNode({ type: PLAIN_LOOP_TYPE, parameters }, job, items, tag);
}

export async function bulkRaw(job: BulkJob, items: number, tag: string): Promise<number> {
	const url = `${job.baseUrl}/api/v1/instances/${encodeURIComponent(job.instanceId)}/messages/text`;
	let next = 0;
	let sent = 0;
	async function worker() {
		while (next < items) {
			const index = next++;
			const response = await request(url, {
				method: 'POST',
				headers: {
					Accept: 'application/json',
					'Content-Type': 'application/json',
					'Idempotency-Key': randomUUID(),
					Authorization: `Bearer ${job.apiKey}`,
				},
				body: JSON.stringify({ to: phoneOfOrOne(index), text: textOf(tag, index) }),
			});
			const body = (await response.body.json()) as { id?: string };
			if (response.statusCode !== 201 || !body.id) {
				throw new Error(`HTTP ${response.statusCode}: ${JSON.stringify(body)}`);
			}
			sent++;
		}
	}
	await Promise.all(Array.from({ length: Math.min(job.concurrency, items) }, worker));
	return sent;
}

/** `max` limits the run (a warm-up); without it, Return All. */
export async function returnAllNode(job: Target, max?: number): Promise<number> {
	const result = await runNode(
		{
			type: NODE_TYPE,
			name: NODE_NAME,
			parameters: {
				resource: 'contact',
				operation: 'getAll',
				instanceId: { __rl: true, mode: 'id', value: job.instanceId },
				returnAll: max === undefined,
				...(max === undefined ? {} : { limit: max }),
			},
		},
		{ credentials: { multichannelApi: { baseUrl: job.baseUrl, apiKey: job.apiKey } } },
	);
	if (result.error) throw new Error(`The workflow failed: ${result.error.message}`);
	return result.output(NODE_NAME).length;
}

export async function returnAllRaw(job: Target, max = Infinity): Promise<number> {
	const items: unknown[] = [];
	let cursor: string | null = null;
	do {
		const query: string = `limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
		const response = await request(
			`${job.baseUrl}/api/v1/instances/${encodeURIComponent(job.instanceId)}/contacts?${query}`,
			{ headers: { Accept: 'application/json', Authorization: `Bearer ${job.apiKey}` } },
		);
		const page = (await response.body.json()) as { data: unknown[]; nextCursor: string | null };
		if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`);
		for (const item of page.data) items.push(item);
		cursor = page.nextCursor;
	} while (cursor && items.length < max);
	return items.length;
}
