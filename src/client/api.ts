import type { Operation } from './operation';
import { answerOperations } from './resources/answers';
import { callOperations } from './resources/calls';
import { campaignOperations } from './resources/campaigns';
import { chatOperations } from './resources/chats';
import { automationEventOperations } from './resources/automation-events';
import { contactOperations } from './resources/contacts';
import { groupOperations } from './resources/groups';
import { instanceOperations } from './resources/instances';
import { labelOperations } from './resources/labels';
import { clickOperations, linkOperations } from './resources/links';
import { messageOperations } from './resources/messages';
import { modelOperations } from './resources/models';
import { optOutOperations } from './resources/opt-outs';
import { pollOperations } from './resources/polls';
import { scheduledMessageOperations } from './resources/scheduled-messages';
import { statusOperations } from './resources/statuses';
import {
	automationWebhookOperations,
	linkWebhookOperations,
	messagingWebhookOperations,
} from './resources/webhooks';

/**
 * The whole contract: one entry per key kind (surface), each a set of resources, each a set of operations.
 * `createClient(api.workspace, …)` turns one of them into typed methods.
 */
export const api = {
	workspace: {
		models: modelOperations,
		instances: instanceOperations,
		messages: messageOperations,
		chats: chatOperations,
		groups: groupOperations,
		contacts: contactOperations,
		answers: answerOperations,
		webhooks: messagingWebhookOperations,
		polls: pollOperations,
		calls: callOperations,
		scheduledMessages: scheduledMessageOperations,
		labels: labelOperations,
		statuses: statusOperations,
		campaigns: campaignOperations,
		optOuts: optOutOperations,
	},
	shortLink: {
		links: linkOperations,
		clicks: clickOperations,
		webhooks: linkWebhookOperations,
	},
	automation: {
		events: automationEventOperations,
		webhooks: automationWebhookOperations,
	},
};

/** A key's kind: the group of endpoints (surface) it opens. The sandbox stores it with each key. */
export type KeyKind = keyof typeof api;

export const KEY_KIND_TITLES: Record<KeyKind, string> = {
	workspace: 'Workspace key (models and messaging channel)',
	shortLink: 'Short-link key',
	automation: 'Automation key',
};

/** One operation of the contract and where it stands: `<key kind>.<resource>.<name>` is its id. */
export interface OperationEntry {
	keyKind: KeyKind;
	resource: string;
	name: string;
	operation: Operation;
}

/** Every operation of the contract, in declaration order: key kind, then resource, then operation. */
export function* eachOperation(contract: typeof api = api): Generator<OperationEntry> {
	for (const keyKind of Object.keys(contract) as KeyKind[]) {
		const resources: Record<string, Record<string, Operation>> = contract[keyKind];
		for (const [resource, operations] of Object.entries(resources)) {
			for (const [name, operation] of Object.entries(operations)) {
				yield { keyKind, resource, name, operation };
			}
		}
	}
}
