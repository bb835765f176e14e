import type {
	AutomationEventRecord,
	ClickRecord,
	ContactRecord,
	DeliveryRecord,
	GroupRecord,
	InstanceRecord,
	LinkRecord,
	MessageRecord,
	WebhookRecord,
} from './store/store';
import { withoutCredentials } from './outbound/policy';
import { secretFingerprint } from '../src/client/signature';
import { HAND_OVER_QUIET_MINUTES } from '../src/client/resources/hand-overs';

/**
 * Records as the API shows them: without the workspace tag and internal fields (key hashes, webhook
 * secrets, delivery payloads). Also used for event data, so a webhook sees what a GET would show.
 */

export const presentInstance = (instance: InstanceRecord) => ({
	id: instance.id,
	name: instance.name,
	description: instance.description,
	status: instance.status,
	phoneNumber: instance.phoneNumber,
	settings: {
		rejectCalls: instance.callSettings?.rejectCalls ?? false,
		rejectCallsText: instance.callSettings?.rejectCallsText ?? null,
		handOverQuietMinutes: instance.handOverQuietMinutes ?? HAND_OVER_QUIET_MINUTES.default,
	},
	restriction: instance.restriction ? { ...instance.restriction } : null,
	createdAt: instance.createdAt,
	updatedAt: instance.updatedAt,
});

export const presentMessage = (message: MessageRecord) => ({
	id: message.id,
	instanceId: message.instanceId,
	chatId: message.chatId,
	direction: message.direction,
	from: message.from,
	to: message.to,
	...(message.phone ? { phone: message.phone } : {}),
	...(message.username ? { username: message.username } : {}),
	type: message.type,
	...(message.media ? { media: { ...message.media } } : {}),
	status: message.status,
	content: message.content,
	error: message.error,
	...(message.trackedLinks
		? { trackedLinks: message.trackedLinks.map((link) => ({ ...link })) }
		: {}),
	createdAt: message.createdAt,
	updatedAt: message.updatedAt,
	...(message.reply ? { reply: { ...message.reply } } : {}),
	...(message.editedAt ? { editedAt: message.editedAt } : {}),
	...(message.deletedAt ? { deletedAt: message.deletedAt } : {}),
	...(message.answeredQuestion ? { answeredQuestion: { ...message.answeredQuestion } } : {}),
	...(message.sendAt ? { sendAt: message.sendAt } : {}),
	...(message.sentAt ? { sentAt: message.sentAt } : {}),
	...(message.late ? { late: true } : {}),
	...(message.fromBusinessPhone ? { fromBusinessPhone: true as const } : {}),
	// A received message always says whom it mentions, so that a workflow can test it without checking it exists.
	...(message.mentions || message.direction === 'inbound'
		? { mentions: [...(message.mentions ?? [])] }
		: {}),
	...(message.mentionEveryone ? { mentionEveryone: true } : {}),
	...(message.direction === 'inbound' ? { mentionsMe: message.mentionsMe === true } : {}),
});

export const presentGroup = (group: GroupRecord) => ({
	id: group.id,
	instanceId: group.instanceId,
	subject: group.subject,
	description: group.description,
	owner: group.owner,
	participants: group.participants.map((participant) => ({ ...participant })),
	settings: { ...group.settings },
	createdAt: group.createdAt,
	updatedAt: group.updatedAt,
});

export const presentContact = (contact: ContactRecord) => ({
	id: contact.id,
	instanceId: contact.instanceId,
	phoneNumber: contact.phoneNumber,
	...(contact.username ? { username: contact.username } : {}),
	chatId:
		contact.hiddenNumberChatId ??
		(contact.phoneNumber === null ? null : `${contact.phoneNumber.slice(1)}@s.whatsapp.net`),
	name: contact.name,
	email: contact.email,
	tags: [...contact.tags],
	blocked: contact.blocked,
	createdAt: contact.createdAt,
	updatedAt: contact.updatedAt,
});

/** Where a short link is opened: the link host (the sandbox's own base URL) and the code. */
export const shortUrlOf = (baseUrl: string, code: string) => `${baseUrl}/${code}`;

export const presentLink = (link: LinkRecord, baseUrl: string) => ({
	id: link.id,
	code: link.code,
	shortUrl: shortUrlOf(baseUrl, link.code),
	url: link.url,
	title: link.title,
	tags: [...link.tags],
	expiresAt: link.expiresAt,
	clickCount: link.clickCount,
	...tracking(link),
	createdAt: link.createdAt,
	updatedAt: link.updatedAt,
});

export const presentClick = (click: ClickRecord) => ({
	id: click.id,
	linkId: click.linkId,
	code: click.code,
	clickedAt: click.clickedAt,
	referrer: click.referrer,
	country: click.country,
	device: click.device,
	browser: click.browser,
	bot: click.bot,
	userAgent: click.userAgent,
	...tracking(click),
});

/** The message and recipient of a tracked link (and of its clicks); nothing for other links. */
function tracking(record: { messageId?: string | null; recipient?: string | null }) {
	return record.messageId
		? { messageId: record.messageId, recipient: record.recipient ?? null }
		: {};
}

export const presentWebhook = (webhook: WebhookRecord) => ({
	id: webhook.id,
	url: withoutCredentials(webhook.url),
	events: [...webhook.events],
	filters: { ...webhook.filters },
	...(webhook.surface === 'workspace'
		? { gather: webhook.gather ?? null }
		: { batch: webhook.batch ?? null }),
	description: webhook.description ?? undefined,
	owner: webhook.owner ?? null,
	secretFingerprint: secretFingerprint(webhook.secret),
	requireAcknowledgement: webhook.requireAcknowledgement === true,
	status: webhook.status,
	disabledReason: webhook.disabledReason,
	disabledCode: webhook.status === 'active' ? null : (webhook.disabledCode ?? 'failures'),
	createdAt: webhook.createdAt,
	updatedAt: webhook.updatedAt,
});

export const presentDelivery = (delivery: DeliveryRecord) => ({
	id: delivery.id,
	webhookId: delivery.webhookId,
	eventId: delivery.eventId,
	eventType: delivery.eventType,
	attempt: delivery.attempt,
	status: delivery.status,
	responseStatus: delivery.responseStatus,
	error: delivery.error,
	createdAt: delivery.createdAt,
	updatedAt: delivery.updatedAt,
	nextAttemptAt: delivery.nextAttemptAt,
	attempts: delivery.attempts.map((attempt) => ({ ...attempt })),
});

export const presentAutomationEvent = (event: AutomationEventRecord) => ({
	id: event.id,
	name: event.name,
	type: event.type,
	payload: event.payload,
	occurredAt: event.occurredAt,
	createdAt: event.createdAt,
});
