import type { INodeProperties } from 'n8n-workflow';

/**
 * The collections of optional fields the operations share, each under its usual name: "Additional Fields"
 * (create), "Update Fields" (update), "Filters" (get many) and "Options".
 */

function collection(
	displayName: string,
	name: string,
	placeholder: string,
	options: INodeProperties[],
): INodeProperties {
	return { displayName, name, type: 'collection', placeholder, default: {}, options };
}

export function additionalFieldsCollection(options: INodeProperties[]): INodeProperties {
	return collection('Additional Fields', 'additionalFields', 'Add Field', options);
}

export function updateFieldsCollection(options: INodeProperties[]): INodeProperties {
	return collection('Update Fields', 'updateFields', 'Add Field', options);
}

export function filtersCollection(options: INodeProperties[]): INodeProperties {
	return collection('Filters', 'filters', 'Add Filter', options);
}

export function optionsCollection(entries: INodeProperties[]): INodeProperties {
	return collection('Options', 'options', 'Add Option', entries);
}
