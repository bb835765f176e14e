import type { api } from '../../src/client/api';
import type { MessageMedia } from '../../src/client/resources/message-media';
import { requirePendingQuestion } from '../answers';
import type { SandboxCore } from '../core';
import { conflict } from '../http';
import { fetchFile } from '../outbound/fetch-file';
import { isBlocked, scheduleProgress, setMessageStatus } from '../phone';
import { newId, type InstanceRecord, type MessageRecord } from '../store';
import {
	chatIdNamed,
	chatIdOf,
	checkUrl,
	paginateWalk,
	recordOfInstance,
	requireConnected,
	requireFile,
	requireInstance,
	type HandlerContext,
	type ResourceHandlers,
} from './context';
import { requireGroup } from './groups';
import { downloadMedia, downloadSignedMedia, keepFile, mediaContent } from './media';
import { checkedMentions } from './mentions';
import { presentMessage } from './present';
import { mediaKindProblem, requireFileFitsKind, requireTypeFitsKind } from './voice-sticker';
import { trackLinks } from './tracked-links';

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
	mentions?: string[];
	mentionEveryone?: boolean;
};

function send<K extends keyof Messages>(
	kind: (context: HandlerContext<Messages[K]>) => {
		type: string;
		content: Record<string, unknown>;
		media?: MessageMedia;
	},
	/** What follows the send: the recipient's progress, or (media by URL) first fetching the file. */
	then: (context: HandlerContext<Messages[K]>, message: MessageRecord) => void = (
		{ core },
		message,
	) => scheduleProgress(core, message),
) {
	return (context: HandlerContext<Messages[K]>) => {
		const { core, workspaceId } = context;
		// Every send shares these fields; the generic context cannot show it to the compiler.
		const body = context.body as Send;
		const params = context.params as { instanceId: string };
		const instance = requireConnected(core, workspaceId, params.instanceId);
		checkRecipient(core, instance, body.to);
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
						chatIdOf(body.to),
					);
		const mentioned = checkedMentions(core, instance, body.to, body);
		const { type, content, media } = kind(context);
		if (body.quotedMessageId !== undefined) content.quotedMessageId = body.quotedMessageId;
		const id = newId('msg');
		const trackedLinks = body.trackLinks
			? trackLinks(core, workspaceId, { messageId: id, recipient: body.to }, type, content)
			: undefined;
		const now = core.now().toISOString();
		const chatId = chatIdOf(body.to);
		// Sending to a chat ends the instance's typing indicator there, as the channel does.
		if (instance.typing?.[chatId]) {
			instance.typing = Object.fromEntries(
				Object.entries(instance.typing).filter(([typingChat]) => typingChat !== chatId),
			);
		}
		const message = core.store.insert('messages', {
			id,
			workspaceId,
			instanceId: instance.id,
			chatId,
			direction: 'outbound',
			from: instance.phoneNumber,
			to: body.to,
			type,
			...(media ? { media } : {}),
			status: 'sent',
			content,
			error: null,
			...(trackedLinks ? { trackedLinks } : {}),
			...mentioned,
			createdAt: now,
			updatedAt: now,
		});
		// In the same step as the message: whatever is received from now on may answer it, nothing before.
		if (question) question.messageId = message.id;
		core.emit(workspaceId, 'message.sent', presentMessage(message), { instanceId: instance.id });
		then(context, message);
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
	sendMedia: send<'sendMedia'>(
		({ core, body }) => {
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
			};
		},
		({ core, body }, message) => keepFromUrl(core, message, body),
	),
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
		checkRecipient(core, instance, body.to);
		const chatId = chatIdOf(body.to);
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
		message.content = { ...message.content, text: body.text };
		message.editedAt = now;
		message.updatedAt = now;
		core.emit(workspaceId, 'message.edited', presentMessage(message), {
			instanceId: message.instanceId,
		});
		return presentMessage(message);
	},

	list: ({ core, workspaceId, params, query }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		const since = query.since === undefined ? -Infinity : Date.parse(query.since);
		const until = query.until === undefined ? Infinity : Date.parse(query.until);
		const chatId = query.chatId === undefined ? undefined : chatIdNamed(query.chatId);
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

	get: ({ core, workspaceId, params }) =>
		presentMessage(requireMessage(core, workspaceId, params.instanceId, params.messageId)),

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
		core.store.remove('messages', message.id);
	},

	downloadMedia,
	downloadSignedMedia,
};

/** The body, header and footer of an interactive message, as stored. */
function interactiveContent(body: { text: string; header?: string; footer?: string }) {
	return { text: body.text, header: body.header ?? null, footer: body.footer ?? null };
}

export const requireMessage = recordOfInstance('messages', 'Message');

/** A group must be one the instance is in; a blocked contact cannot be written to. */
function checkRecipient(core: SandboxCore, instance: InstanceRecord, to: string): void {
	if (to.endsWith('@g.us')) {
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

/**
 * Fetches the file of a media message sent by URL, as the service does to send it, and keeps it with the
 * message; the recipient's progress (delivered, read) starts once the fetch has ended. A URL the outbound
 * policy refuses (a name resolving to a refused address, a redirect to one) fails the message
 * (`message.failed`, error `media_url_refused`), and so does a voice note that is not OGG/Opus or a sticker that is not
 * a WebP within its limit (`not_a_voice_note`, `not_a_sticker`: only the bytes tell). Any other failure (an error status, too large, no answer)
 * leaves the message without a file: it still counts as sent, and a download answers 404.
 */
export function keepFromUrl(
	core: SandboxCore,
	message: MessageRecord,
	source: { url: string; mimeType?: string; fileName?: string },
): void {
	core.scheduler.after(0, async () => {
		const fetched = await fetchFile(
			source.url,
			core.media.limits.maxFileBytes,
			core.outbound.media,
		);
		if (core.scheduler.isClosed || !core.store.get('messages', message.id)) return;
		const misfit = 'file' in fetched ? mediaKindProblem(message.type, fetched.file) : undefined;
		if ('refused' in fetched || misfit !== undefined) {
			message.error =
				'refused' in fetched
					? { code: 'media_url_refused', message: fetched.refused }
					: {
							code: message.type === 'voice' ? 'not_a_voice_note' : 'not_a_sticker',
							message: `The file at the URL is refused: ${misfit}`,
						};
			setMessageStatus(core, message, 'failed');
			core.emit(message.workspaceId, 'message.failed', presentMessage(message), {
				instanceId: message.instanceId,
			});
		} else if ('file' in fetched) {
			const media = core.media.put(message.workspaceId, {
				data: fetched.file.data,
				mimeType: source.mimeType ?? fetched.file.mimeType,
				fileName: source.fileName ?? fileNameInUrl(source.url),
			});
			if (media) message.media = media;
		}
		scheduleProgress(core, message);
		core.onBackgroundChange();
	});
}

function fileNameInUrl(url: string): string | null {
	const last = new URL(url).pathname.split('/').pop();
	if (!last) return null;
	try {
		return decodeURIComponent(last);
	} catch {
		return last;
	}
}
