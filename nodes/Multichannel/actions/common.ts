import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';

import type { Scope, WorkspaceClient } from '../../../src/client';
import { workspaceConnection } from '../../shared/client';
import { toNodeError } from '../../shared/errors';
import { MAX_CONCURRENCY } from '../../shared/execute';
import { idempotencyKeyFor, idempotencyKeyOption } from '../../shared/idempotency';

/** Helpers shared by the resources of the Multichannel node. */

export interface LocatorSpec {
	displayName: string;
	name: string;
	/** The resource in sentence text: "instance". */
	noun: string;
	searchListMethod: string;
	idPlaceholder: string;
	/** A regex the ID must match, and what to say when it does not. */
	idRegex?: { regex: string; errorMessage: string };
	description?: string;
}

/** A resource locator: picked from a searchable list, or given by ID (or expression). */
export function locator(spec: LocatorSpec): INodeProperties {
	return {
		displayName: spec.displayName,
		name: spec.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: spec.description ?? `The ${spec.noun} to use`,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${spec.noun}...`,
				typeOptions: { searchListMethod: spec.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: spec.idPlaceholder,
				validation: spec.idRegex
					? [{ type: 'regex', properties: spec.idRegex }]
					: [
							{
								type: 'regex',
								properties: {
									regex: '^\\S+$',
									errorMessage: `A ${spec.noun} ID has no spaces`,
								},
							},
						],
			},
		],
	};
}

/** The value of a resource locator (or of a plain field an expression filled), trimmed. */
export function locatorValue(context: IExecuteFunctions, name: string, itemIndex: number): string {
	const value = context.getNodeParameter(name, itemIndex, '', { extractValue: true }) as unknown;
	return typeof value === 'string' ? value.trim() : String(value ?? '');
}

/** The value of a resource locator the list search depends on (the instance of a group list). */
export function currentLocatorValue(context: ILoadOptionsFunctions, name: string): string {
	const value = context.getCurrentNodeParameter(name, { extractValue: true }) as unknown;
	return typeof value === 'string' ? value.trim() : '';
}

export interface SearchPage<T> {
	data: T[];
	nextCursor?: string | null;
}

/**
 * Fills a "From list": one page of the service's list (following the editor's pagination token), the
 * entries whose name or ID contains what the user typed.
 */
export async function searchList<T>(
	context: ILoadOptionsFunctions,
	options: {
		scope: Scope;
		noun: string;
		filter?: string;
		paginationToken?: string;
		page: (client: WorkspaceClient, cursor: string | undefined) => Promise<SearchPage<T>>;
		toItem: (entry: T) => INodeListSearchItems;
	},
): Promise<INodeListSearchResult> {
	try {
		const { client } = await workspaceConnection(context);
		const { data, nextCursor } = await options.page(client, options.paginationToken || undefined);
		const needle = options.filter?.trim().toLowerCase() ?? '';
		const results = data
			.map(options.toItem)
			.filter(
				(item) =>
					needle === '' ||
					item.name.toLowerCase().includes(needle) ||
					String(item.value).toLowerCase().includes(needle),
			);
		return { results, paginationToken: nextCursor ?? undefined };
	} catch (error) {
		throw toNodeError(context.getNode(), error, {
			keyKind: 'workspace',
			scope: options.scope,
			noun: options.noun,
		});
	}
}

/** "Simplify": shown on operations whose answers are large. */
export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

export function simplifyWanted(context: IExecuteFunctions, itemIndex: number): boolean {
	return context.getNodeParameter('simplify', itemIndex, true) as boolean;
}

/** Removes the keys whose value is undefined (fields the user left out). */
export function compact<T extends IDataObject>(object: T): T {
	return Object.fromEntries(
		Object.entries(object).filter(([, value]) => value !== undefined && value !== ''),
	) as T;
}

/** Tags or IDs typed as "a, b, c" (or given as an array by an expression). */
export function splitList(value: unknown): string[] {
	const parts = Array.isArray(value) ? value : String(value ?? '').split(/[,\n]/);
	return parts.map((part) => String(part).trim()).filter((part) => part !== '');
}

/** The options every send has: an idempotency key of its own, and how many items go at once. */
export const sendOptions: INodeProperties[] = [
	{
		...idempotencyKeyOption,
		placeholder: 'e.g. order-1042-confirmation',
		hint: 'Leave empty to derive one, so that a retried item is not sent twice',
	},
	{
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		default: 5,
		typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
		description:
			'How many items to send at the same time. Output keeps the order of the input items, and sending slows down when the rate limit of the key is reached.',
	},
];

/** The default number of items in flight for sends; other operations run one item after the other. */
export const DEFAULT_SEND_CONCURRENCY = 5;

/**
 * The node's concurrency: the "Concurrency" option of a send (read on the first item, as it applies to the
 * whole run); other operations have none and run their items one after the other.
 */
export function concurrencyOf(context: IExecuteFunctions): number {
	if (context.getInputData().length < 2) return 1;
	const resource = context.getNodeParameter('resource', 0, '') as string;
	const operation = context.getNodeParameter('operation', 0, '') as string;
	if (resource !== 'message' || !operation.startsWith('send')) return 1;
	return context.getNodeParameter('options.concurrency', 0, DEFAULT_SEND_CONCURRENCY) as number;
}

/**
 * The Idempotency-Key of a send: the user's own key when given, else derived by the shared rule
 * (`nodes/shared/idempotency.ts`): sha256 of the execution ID, the node's name, the item index, the operation
 * and the request (here the instance and the exact body; an uploaded file as its hash). When n8n runs the
 * same item again in the same execution ("Retry On Fail", or a resent request after a lost answer), the
 * service sees the same key and body and answers with the first message instead of sending twice; a new
 * execution, another item or other content is sent anew. The service keeps keys for 24 hours.
 */
export function sendIdempotencyKey(
	context: IExecuteFunctions,
	itemIndex: number,
	operation: string,
	instanceId: string,
	body: unknown,
): string {
	return idempotencyKeyFor(
		context,
		itemIndex,
		context.getNodeParameter('options.idempotencyKey', itemIndex, ''),
		{ operation, body: { instanceId, body } },
	);
}
