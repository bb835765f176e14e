/**
 * What n8n's expression engine did, read from n8n's Prometheus metrics (`N8N_METRICS=true`, `/metrics` on the
 * main process and on each webhook process): the isolates it acquired and the evaluations that reached it. Every
 * acquisition counts, eager or lazy (`ExpressionEvaluator.acquire` and `acquireBridgeSync` in
 * @n8n/expression-runtime), whatever acquired it: the request, a credential read, an execution.
 */
import { request } from 'undici';

/** The environment that makes n8n serve the metrics. */
export const METRICS_ENV = { N8N_METRICS: 'true' };

export interface EngineCounts {
	isolates: number;
	evaluations: number;
}

/** The sum of a metric over all its label sets, in Prometheus' text format. */
function sumOf(text: string, name: string): number {
	let sum = 0;
	for (const line of text.split('\n')) {
		if (!line.startsWith(name)) continue;
		const rest = line.slice(name.length);
		if (rest[0] !== ' ' && rest[0] !== '{') continue;
		sum += Number(rest.slice(rest.lastIndexOf(' ') + 1)) || 0;
	}
	return sum;
}

/** The engine's counters in the n8n process behind `baseUrl` (with one webhook process, its balancer). */
export async function engineCounts(baseUrl: string): Promise<EngineCounts> {
	const response = await request(`${baseUrl.replace(/\/$/, '')}/metrics`);
	const text = await response.body.text();
	if (response.statusCode !== 200)
		throw new Error(`${baseUrl}/metrics: HTTP ${response.statusCode}`);
	return {
		isolates: sumOf(text, 'n8n_expression_pool_acquired_total'),
		evaluations: sumOf(text, 'n8n_expression_evaluation_duration_seconds_count'),
	};
}

/** Per delivery, between two readings. */
export function perDelivery(before: EngineCounts, after: EngineCounts, deliveries: number) {
	return {
		isolates: (after.isolates - before.isolates) / deliveries,
		evaluations: (after.evaluations - before.evaluations) / deliveries,
	};
}
