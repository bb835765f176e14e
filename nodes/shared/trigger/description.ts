import {
	NodeConnectionTypes,
	type INodeProperties,
	type INodeTypeDescription,
	type IWebhookDescription,
} from 'n8n-workflow';

/** The one webhook of a trigger node's description: `default`, the name its `webhookMethods` and URL go by. */
export const triggerWebhook: IWebhookDescription = {
	name: 'default',
	httpMethod: 'POST',
	responseMode: 'onReceived',
	// n8n then answers a delivery that starts an execution with the node's `webhookResponse`, which
	// acknowledges it (answers.ts); without it n8n answers with the literal text "firstEntryJson".
	responseData: '',
	path: 'webhook',
};

/** What every trigger node's description says alike: a trigger with no input, one output and the one webhook. */
export const triggerBasics = {
	group: ['trigger'],
	// Version 2 behaves as 1: n8n evaluates an expression on every webhook call to a version-1 start node,
	// an expression isolate per delivery (docs/design.md, "What n8n evaluates for a delivery").
	version: [1, 2],
	defaultVersion: 2,
	inputs: [],
	outputs: [NodeConnectionTypes.Main],
	webhooks: [triggerWebhook],
} satisfies Partial<INodeTypeDescription>;

/** A filter to the events of chosen items (instances, links), picked from a list its load-options method fills. */
export function chosenItemsProperty(item: {
	/** The plural noun shown, capitalised: "Instance", "Link". */
	label: string;
	name: string;
	loadOptionsMethod: string;
}): INodeProperties {
	const noun = item.label.toLowerCase();
	return {
		displayName: `${item.label} Names or IDs`,
		name: item.name,
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: item.loadOptionsMethod },
		default: [],
		description: `Only events of these ${noun}s; none chosen means every ${noun}. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	};
}
