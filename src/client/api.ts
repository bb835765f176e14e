import { automationWebhooks, linkWebhooks, messagingWebhooks } from './events';
import type { Operation } from './operation';
import { answerOperations } from './resources/answers';
import { automationEventOperations } from './resources/automation';
import { contactOperations } from './resources/contacts';
import { groupOperations } from './resources/groups';
import { instanceOperations } from './resources/instances';
import { clickOperations, linkOperations } from './resources/links';
import { messageOperations } from './resources/messages';
import { modelOperations } from './resources/models';

/**
 * The whole contract: one entry per key kind (surface), each a set of resources, each a set of operations.
 * `createClient(api.workspace, …)` turns one of them into typed methods.
 */
export const api = {
	workspace: {
		models: modelOperations,
		instances: instanceOperations,
		messages: messageOperations,
		groups: groupOperations,
		contacts: contactOperations,
		answers: answerOperations,
		webhooks: messagingWebhooks.operations,
	},
	shortLink: {
		links: linkOperations,
		clicks: clickOperations,
		webhooks: linkWebhooks.operations,
	},
	automation: {
		events: automationEventOperations,
		webhooks: automationWebhooks.operations,
	},
};

export type Surface = keyof typeof api;

export const SURFACE_TITLES: Record<Surface, string> = {
	workspace: 'Workspace key (models and messaging channel)',
	shortLink: 'Short-link key',
	automation: 'Automation key',
};

/** One operation of the contract and where it stands: `<surface>.<resource>.<name>` is its id. */
export interface OperationEntry {
	surface: Surface;
	resource: string;
	name: string;
	operation: Operation;
}

/** Every operation of the contract, in declaration order: surface, then resource, then operation. */
export function* eachOperation(contract: typeof api = api): Generator<OperationEntry> {
	for (const surface of Object.keys(contract) as Surface[]) {
		const resources: Record<string, Record<string, Operation>> = contract[surface];
		for (const [resource, operations] of Object.entries(resources)) {
			for (const [name, operation] of Object.entries(operations)) {
				yield { surface, resource, name, operation };
			}
		}
	}
}
