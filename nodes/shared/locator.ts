import type { IExecuteFunctions, ILoadOptionsFunctions, INodeProperties } from 'n8n-workflow';

import { capitalised, withArticle } from './words';

/**
 * Resource locators ("From list", "By ID", or an expression) of every node: the field and its value. The
 * searches that fill their lists are in lists.ts.
 */

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
				placeholder: `Select ${withArticle(spec.noun)}...`,
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
									errorMessage: `${capitalised(withArticle(spec.noun))} ID has no spaces`,
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
