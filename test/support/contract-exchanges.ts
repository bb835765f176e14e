import { api, eachOperation } from '../../src/client/api';
import type { Operation } from '../../src/client/operation';
import { documentValidator } from './contract';
import type { Exchange } from './sandbox';

/**
 * The exchanges of a run checked against the contract, each by the operation it was for: the status the contract
 * names, the rate-limit and request-id headers, a file's headers, the operation's own (lenient) zod response schema
 * and the OpenAPI document's schema made strict (contract.ts). Also which operations no exchange covered.
 */

interface Entry {
	id: string;
	operation: Operation;
	path: string;
	pattern: RegExp;
	params: number;
}

const entries: Entry[] = [...eachOperation(api)].map(({ keyKind, resource, name, operation }) => {
	const path = `/api/v1${operation.path}`;
	return {
		id: `${keyKind}.${resource}.${name}`,
		operation,
		path,
		pattern: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`),
		params: (path.match(/\{/g) ?? []).length,
	};
});

/** The operation an exchange was for; literal segments win over parameters, as in any router. */
function entryOf(exchange: Exchange): Entry | undefined {
	const path = new URL(exchange.url).pathname;
	return entries
		.filter((entry) => entry.operation.method === exchange.method && entry.pattern.test(path))
		.sort((a, b) => a.params - b.params)[0];
}

const RESPONSE_HEADERS = [
	'x-request-id',
	'x-ratelimit-limit',
	'x-ratelimit-remaining',
	'x-ratelimit-reset',
];
const FILE_HEADERS = ['content-type', 'content-disposition', 'content-length'];

/** What is wrong with the exchanges, one line each, and the operations of the contract none of them called. */
export function checkExchanges(log: Exchange[]): { problems: string[]; uncovered: string[] } {
	const problems: string[] = [];
	const covered = new Set<string>();
	for (const exchange of log) {
		const entry = entryOf(exchange);
		if (!entry) {
			problems.push(`no operation for ${exchange.method} ${exchange.url}`);
			continue;
		}
		const { operation } = entry;
		// A create that found what it would make answers its `foundStatus` (a campaign by its reference).
		const status =
			exchange.status === operation.foundStatus ? operation.foundStatus : operation.status;
		if (exchange.status !== status) {
			problems.push(`${entry.id}: HTTP ${exchange.status}, the contract says ${operation.status}`);
			continue;
		}
		covered.add(entry.id);
		for (const header of RESPONSE_HEADERS) {
			if (exchange.headers[header] === undefined) problems.push(`${entry.id}: no ${header} header`);
		}
		if (operation.binary) {
			// A file: its bytes, described by its headers (the document's `*/*` answer).
			for (const header of FILE_HEADERS) {
				if (exchange.headers[header] === undefined)
					problems.push(`${entry.id}: a file without a ${header} header`);
			}
			if (!Buffer.isBuffer(exchange.body)) problems.push(`${entry.id}: the answer is not bytes`);
			continue;
		}
		if (!operation.response) {
			if (exchange.body !== undefined)
				problems.push(`${entry.id}: a ${operation.status} answer with a body`);
			continue;
		}
		const zodResult = operation.response.safeParse(exchange.body);
		if (!zodResult.success)
			problems.push(`${entry.id}: response schema: ${zodResult.error.message}`);
		const validateDocument = documentValidator(entry.path, operation.method, status);
		if (!validateDocument)
			problems.push(`${entry.id}: the document has no JSON schema for ${status}`);
		else {
			const errors = validateDocument(exchange.body);
			if (errors) problems.push(`${entry.id}: document: ${errors}`);
		}
	}
	return { problems, uncovered: entries.map((entry) => entry.id).filter((id) => !covered.has(id)) };
}
