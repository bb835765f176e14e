import type { INode, NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { KeyKind } from '../../src/client';
import type { Clean } from './redaction';

/**
 * What the mapping of a thrown error to n8n's error (errors.ts, api-errors.ts) works with: what the node knows of
 * the call, and what each case of the mapping is given.
 */

/** What the node knows about the call that failed, to say what went wrong in the user's terms. */
export interface ErrorContext {
	/** The input item being processed; absent outside item processing (list searches). */
	itemIndex?: number;
	/** The kind of key the node's credential holds. */
	keyKind: KeyKind;
	/** The scope the operation needs, e.g. `messaging:read`. */
	scope?: string;
	/** What the operation works on, for "not found": "model". */
	noun?: string;
	/** Parameter names as the user sees them, by the client's field names: `{ modelId: 'Model' }`. */
	fields?: Record<string, string>;
	/** Values that must never appear in a message: the API key. */
	secrets?: string[];
	/** The service's address from the credential (normalised base URL), to name it and its console. */
	serviceUrl?: string;
}

export type NodeError = NodeApiError | NodeOperationError;

/** What every case of the mapping needs: the node, the call's context, its redaction and ` [item N]`. */
export interface Mapping {
	node: INode;
	context: ErrorContext;
	clean: Clean;
	item: string;
}
