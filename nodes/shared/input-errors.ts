import { NodeOperationError, type INode } from 'n8n-workflow';

/**
 * Input mistakes the node finds before any request, worded one way everywhere: the field as the user sees it,
 * the item, and what is wrong with it.
 */

/** ` [item N]`, or nothing outside item processing. */
export function itemSuffix(itemIndex: number | undefined): string {
	return itemIndex === undefined ? '' : ` [item ${itemIndex}]`;
}

/** `Invalid value for "Field" [item N]: problem`. */
export function invalidValueMessage(
	field: string,
	itemIndex: number | undefined,
	problem: string,
): string {
	return `Invalid value for "${field}"${itemSuffix(itemIndex)}: ${problem}`;
}

/** The error for a value that cannot be used; `description` says how to enter it right. */
export function invalidValue(
	node: INode,
	field: string,
	itemIndex: number,
	problem: string,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(
		node,
		invalidValueMessage(field, itemIndex, problem),
		description === undefined ? { itemIndex } : { itemIndex, description },
	);
}

/**
 * An update whose body changes nothing is refused before any request. `message` is for a node that words it
 * otherwise; the default names the "Update Fields" collection.
 */
export function requireChanges(
	node: INode,
	itemIndex: number,
	body: object,
	message = invalidValueMessage('Update Fields', itemIndex, 'add at least one field to change'),
): void {
	if (Object.keys(body).length === 0) throw new NodeOperationError(node, message, { itemIndex });
}
