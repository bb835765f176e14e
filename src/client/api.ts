import { automationWebhooks, linkWebhooks, messagingWebhooks } from './events';
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

/** A key's kind: the group of endpoints (surface) it opens. The sandbox stores it with each key. */
export type KeyKind = keyof typeof api;

export const KEY_KIND_TITLES: Record<KeyKind, string> = {
	workspace: 'Workspace key (models and messaging channel)',
	shortLink: 'Short-link key',
	automation: 'Automation key',
};
