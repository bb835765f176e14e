import type { api } from '../../../src/client/api';
import type { MessageMedia } from '../../../src/client/resources/message-media';
import { requirePendingQuestion } from '../../channel/answers';
import type { SandboxCore } from '../../core';
import { conflict } from '../../errors';
import { sendOutgoing, type Outgoing } from '../../channel/outgoing';
import { isBlocked } from '../../channel/phone';
import { setMessageStatus } from '../../channel/progress';
import { presentScheduled, scheduleSend } from '../../channel/scheduled';
import { newId, type InstanceRecord, type MessageRecord } from '../../store/store';
import { chatIdOf } from '../../channel/chat-ids';
import { chatIdNamed, recipientNamed } from '../../channel/people';
import {
	checkUrl,
	paginateWalk,
	requireFile,
	type HandlerContext,
	type ResourceHandlers,
} from './context';
import {
	requireConnected,
	requireGroup,
	requireInstance,
	requireMessage,
} from '../../channel/instance-records';
import { downloadMedia, downloadSignedMedia } from './media';
import { keepFile, mediaContent } from '../../channel/message-files';
import { checkedMentions } from '../../channel/mentions';
import { presentMessage } from '../../present';
import { requireFileFitsKind, requireTypeFitsKind } from '../../channel/voice-sticker';
import { isGroupChatId } from '../../../src/client/chat-ids';

/**
 * Sending: a connected instance stores the message as `sent` (`message.sent`), and the simulated recipient
 * then acknowledges it (`message.delivered`) and reads it (`message.read`; see ../phone.ts). A number that
 * is not on the channel (see `numberExists`) makes the message fail instead (`message.failed`).
 */

type Messages = typeof api.workspace.messages;
type Send = {
	to: string;
	quotedMessageId?: string;
	trackLinks?: boolean;
	answerRegistrationId?: string;
	sendAt?: string;
	mentions?: string[];
	mentionEveryone?: boolean;
};

function send<K extends keyof Messages>(
	kind: (context: HandlerContext<Messages[K]>) => {
		type: string;
		content: Record<string, unknown>;
		media?: MessageMedia;
		/** Media by URL: the file is fetched when the message goes. */
		fetch?: Outgoing['fetch'];
	},
) {
	return (context: HandlerContext<Messages[K]>) => {
		const { core, workspaceId } = context;
		// Every send shares these fields; the generic context cannot show it to the compiler.
		const body = context.body as Send;
		const params = context.params as { instanceId: string };
		const instance = requireConnected(core, workspaceId, params.instanceId);
		const to = recipientNamed(core, instance, body.to, 'body.to');
		checkRecipient(core, instance, to);
		if (body.quotedMessageId !== undefined)
			requireMessage(core, workspaceId, instance.id, body.quotedMessageId);
		const question =
			body.answerRegistrationId === undefined
				? undefined
				: requirePendingQuestion(
						core,
						workspaceId,
						instance.id,
						body.answerRegistrationId,
						chatIdOf(to),
					);
		const mentioned = checkedMentions(core, instance, to, body);
		const { type, content, media, fetch } = kind(context);
		if (body.quotedMessageId !== undefined) content.quotedMessageId = body.quotedMessageId;
		const outgoing: Outgoing = {
			id: newId('msg'),
			workspaceId,
			instance,
			to,
			type,
			content,
			...(media ? { media } : {}),
			...(body.trackLinks ? { trackLinks: true } : {}),
			...(fetch ? { fetch } : {}),
			mentioned,
		};
		if (body.sendAt !== undefined) {
			return scheduleSend(core, outgoing, body.sendAt, question !== undefined);
		}
		// In the same step as the message: whatever is received from now on may answer it, nothing before.
		const message = sendOutgoing(core, outgoing, (sent) => {
			if (question) question.messageId = sent.id;
		});
		return presentMessage(message);
	};
}

export const messageHandlers: ResourceHandlers<Messages> = {
	sendText: send<'sendText'>(({ body }) => ({
		type: 'text',
		content: {
			text: body.text,
			...(body.previewUrl !== undefined ? { previewUrl: body.previewUrl } : {}),
		},
	})),
	sendMedia: send<'sendMedia'>(({ core, body }) => {
		checkUrl(body.url, core.outbound.media.policy);
		requireTypeFitsKind(body.mediaType, body.mimeType);
		return {
			type: body.mediaType,
			content: {
				mediaType: body.mediaType,
				url: body.url,
				caption: body.caption ?? null,
				fileName: body.fileName ?? null,
				mimeType: body.mimeType ?? null,
			},
			fetch: { url: body.url, mimeType: body.mimeType, fileName: body.fileName },
		};
	}),
	sendMediaUpload: send<'sendMediaUpload'>((context) => {
		const { body } = context;
		const file = requireFile(context.file);
		requireFileFitsKind(body.mediaType, file);
		const media = keepFile(context.core, context.workspaceId, {
			data: file.data,
			mimeType: file.mimeType,
			fileName: body.fileName ?? file.fileName,
		});
		return {
			type: body.mediaType,
			content: mediaContent(body.mediaType, body.caption ?? null, media),
			media,
		};
	}),
	sendLocation: send<'sendLocation'>(({ body }) => ({
		type: 'location',
		content: {
			latitude: body.latitude,
			longitude: body.longitude,
			name: body.name ?? null,
			address: body.address ?? null,
		},
	})),
	sendContactCard: send<'sendContactCard'>(({ body }) => ({
		type: 'contact',
		content: { contacts: body.contacts },
	})),
	sendReaction: send<'sendReaction'>(({ core, workspaceId, params, body }) => {
		requireMessage(core, workspaceId, params.instanceId, body.messageId);
		return { type: 'reaction', content: { messageId: body.messageId, emoji: body.emoji } };
	}),
	sendPoll: send<'sendPoll'>(({ body }) => ({
		type: 'poll',
		content: {
			question: body.question,
			options: body.options,
			multipleAnswers: body.multipleAnswers ?? false,
		},
	})),

	sendButtons: send<'sendButtons'>(({ body }) => ({
		type: 'buttons',
		content: {
			...interactiveContent(body),
			buttons: body.buttons.map((button) => ({ ...button })),
		},
	})),
	sendList: send<'sendList'>(({ body }) => ({
		type: 'list',
		content: {
			...interactiveContent(body),
			buttonText: body.buttonText,
			sections: body.sections.map((section) => ({
				title: section.title ?? null,
				rows: section.rows.map((row) => ({ ...row, description: row.description ?? null })),
			})),
		},
	})),

	sendTyping: ({ core, workspaceId, params, body }) => {
		const instance = requireConnected(core, workspaceId, params.instanceId);
		const to = recipientNamed(core, instance, body.to, 'body.to');
		checkRecipient(core, instance, to);
		const chatId = chatIdOf(to);
		const until = new Date(core.now().getTime() + body.seconds * 1000).toISOString();
		instance.typing = { ...instance.typing, [chatId]: { state: body.state, until } };
		return { instanceId: instance.id, chatId, to: body.to, state: body.state, until };
	},

	edit: ({ core, workspaceId, params, body }) => {
		const message = requireMessage(core, workspaceId, params.instanceId, params.messageId);
		if (message.direction !== 'outbound') {
			throw conflict(
				'not_outbound',
				`Message ${message.id} was received; only messages this instance sent can be edited`,
			);
		}
		if (message.type !== 'text' || message.status === 'failed') {
			throw conflict(
				'not_editable',
				message.type !== 'text'
					? `Message ${message.id} is a ${message.type} message; only text messages can be edited`
					: `Message ${message.id} failed to send; there is nothing to edit`,
			);
		}
		requireConnected(core, workspaceId, params.instanceId);
		const now = core.now().toISOString();
		const previousText = (message.content as { text?: string }).text ?? null;
		message.content = { ...message.content, text: body.text };
		message.editedAt = now;
		message.updatedAt = now;
		core.emit(workspaceId, 'message.edited', {
			...presentMessage(message),
			by: 'business',
			previousText,
		});
		return presentMessage(message);
	},

	list: ({ core, workspaceId, params, query }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		const since = query.since === undefined ? -Infinity : Date.parse(query.since);
		const until = query.until === undefined ? Infinity : Date.parse(query.until);
		const chatId =
			query.chatId === undefined
				? undefined
				: chatIdNamed(core, instance, query.chatId, 'query.chatId');
		const wanted = (message: MessageRecord) => {
			const createdAt = Date.parse(message.createdAt);
			return (
				(query.direction === undefined || message.direction === query.direction) &&
				createdAt >= since &&
				createdAt < until
			);
		};
		// The instance's (or the chat's) messages from the index, walked from the cursor: a page costs what it
		// reads, not every message stored.
		const messages = core.store.messageIndex.messagesOf(instance.id, chatId);
		return paginateWalk(
			function* (after) {
				const cursor = after && { id: after.after, order: after.position };
				for (const { message, order } of messages.walk(query.order !== 'oldest', cursor)) {
					if (wanted(message)) yield { item: message, position: order };
				}
			},
			query,
			presentMessage,
		);
	},

	get: ({ core, workspaceId, params }) => {
		// A scheduled send is a message too before it goes: answered as it stands (status `scheduled` or `cancelled`).
		const scheduled = core.store.find('scheduledMessages', workspaceId, params.messageId);
		if (scheduled?.instanceId === params.instanceId && scheduled.status !== 'sent') {
			return presentScheduled(core, scheduled);
		}
		return presentMessage(requireMessage(core, workspaceId, params.instanceId, params.messageId));
	},

	markRead: ({ core, workspaceId, params }) => {
		const message = requireMessage(core, workspaceId, params.instanceId, params.messageId);
		if (message.direction !== 'inbound') {
			throw conflict(
				'not_inbound',
				`Message ${message.id} was sent by this instance; only received messages can be marked read`,
			);
		}
		requireConnected(core, workspaceId, params.instanceId);
		setMessageStatus(core, message, 'read');
		return presentMessage(message);
	},

	delete: ({ core, workspaceId, params }) => {
		const message = requireMessage(core, workspaceId, params.instanceId, params.messageId);
		const deleted = {
			...presentMessage(message),
			by: 'business',
			deletedAt: core.now().toISOString(),
		};
		core.store.remove('messages', message.id);
		core.emit(workspaceId, 'message.deleted', deleted);
	},

	downloadMedia,
	downloadSignedMedia,
};

/** The body, header and footer of an interactive message, as stored. */
function interactiveContent(body: { text: string; header?: string; footer?: string }) {
	return { text: body.text, header: body.header ?? null, footer: body.footer ?? null };
}

/** A group must be one the instance is in; a blocked contact cannot be written to. */
function checkRecipient(core: SandboxCore, instance: InstanceRecord, to: string): void {
	if (isGroupChatId(to)) {
		requireGroup(core, instance.workspaceId, instance.id, to);
		return;
	}
	if (isBlocked(core, instance, to)) {
		throw conflict(
			'contact_blocked',
			`${to} is blocked on instance ${instance.id}; unblock the contact first`,
		);
	}
}
