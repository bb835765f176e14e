import { answerHandlers } from './answers';
import { automationEventHandlers } from './automation';
import { callHandlers } from './calls';
import { campaignHandlers } from './campaigns';
import { chatHandlers } from './chats';
import { contactHandlers } from './contacts';
import type { Handlers } from './context';
import { groupHandlers } from './groups';
import { instanceHandlers } from './instances';
import { labelHandlers } from './labels';
import { clickHandlers, linkHandlers } from './links';
import { messageHandlers } from './messages';
import { modelHandlers } from './models';
import { optOutHandlers } from './opt-outs';
import { pollHandlers } from './polls';
import { scheduledMessageHandlers } from './scheduled-messages';
import { statusHandlers } from './statuses';
import { webhookHandlers } from './webhooks';

/** Every operation of `api`, surface by surface, resource by resource: the same shape as the contract. */
export const handlers: Handlers = {
	workspace: {
		models: modelHandlers,
		instances: instanceHandlers,
		messages: messageHandlers,
		chats: chatHandlers,
		groups: groupHandlers,
		contacts: contactHandlers,
		answers: answerHandlers,
		webhooks: webhookHandlers('workspace'),
		polls: pollHandlers,
		calls: callHandlers,
		scheduledMessages: scheduledMessageHandlers,
		labels: labelHandlers,
		statuses: statusHandlers,
		campaigns: campaignHandlers,
		optOuts: optOutHandlers,
	},
	shortLink: {
		links: linkHandlers,
		clicks: clickHandlers,
		webhooks: webhookHandlers('shortLink'),
	},
	automation: {
		events: automationEventHandlers,
		webhooks: webhookHandlers('automation'),
	},
};
