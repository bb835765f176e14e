import { answerOperations } from './resources/answers';
import { automationEventOperations } from './resources/automation-events';
import { contactOperations } from './resources/contacts';
import { groupOperations } from './resources/groups';
import { instanceOperations } from './resources/instances';
import { clickOperations, linkOperations } from './resources/links';
import { messageOperations } from './resources/messages';
import { modelOperations } from './resources/models';
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
		groups: groupOperations,
		contacts: contactOperations,
		answers: answerOperations,
		webhooks: messagingWebhookOperations,
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
