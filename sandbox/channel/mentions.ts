import type { SandboxCore } from '../core';
import { HttpError } from '../errors';
import type { InstanceRecord, MessageRecord } from '../store/store';
import { requireGroup } from './instance-records';
import { isGroupChatId } from '../../src/client/chat-ids';

/**
 * Mentions of a text or a caption, sent or received: each mentioned number must be in the chat (a member of the
 * group, or the person of a one-to-one chat), and "everyone" exists only in a group. The schema has already
 * checked that the text shows each as `@<number>` (src/client/resources/message-sends.ts).
 */

type Mentioned = Pick<MessageRecord, 'mentions' | 'mentionEveryone'>;

/** The people of a chat besides the instance: a group's members, or the one person. */
function peopleOf(core: SandboxCore, instance: InstanceRecord, chat: string): string[] {
	if (!isGroupChatId(chat)) return [chat];
	return requireGroup(core, instance.workspaceId, instance.id, chat).participants.map(
		(participant) => participant.phoneNumber,
	);
}

/**
 * The mentions a message keeps, checked against its chat (`chat`: a group id or a person's number); 400
 * `mention_not_in_chat` names the numbers that are not in it, each at its field.
 */
export function checkedMentions(
	core: SandboxCore,
	instance: InstanceRecord,
	chat: string,
	input: { mentions?: string[]; mentionEveryone?: boolean },
): Mentioned {
	const mentions = input.mentions === undefined ? undefined : [...new Set(input.mentions)];
	if (input.mentionEveryone && !isGroupChatId(chat)) {
		throw new HttpError(
			400,
			'validation_failed',
			'mentionEveryone is for groups only: this chat is with one person (mention them with mentions)',
			[{ field: 'body.mentionEveryone', message: 'is for groups only' }],
		);
	}
	if (mentions) {
		const people = new Set([...peopleOf(core, instance, chat), instance.phoneNumber]);
		const absent = mentions.filter((number) => !people.has(number));
		if (absent.length > 0) {
			const where = isGroupChatId(chat)
				? `members of group ${chat}`
				: `the person of this chat (${chat})`;
			throw new HttpError(
				400,
				'mention_not_in_chat',
				`Mentioned but not in the chat: ${absent.join(', ')}; only ${where} can be mentioned`,
				absent.map((number) => ({
					field: `body.mentions.${input.mentions?.indexOf(number) ?? 0}`,
					message: `${number} is not in this chat`,
				})),
			);
		}
	}
	return {
		...(mentions ? { mentions } : {}),
		...(input.mentionEveryone ? { mentionEveryone: true } : {}),
	};
}

/** Whether a received message mentions the instance's own number, or everyone in a group. */
export function mentionsInstance(instance: InstanceRecord, mentioned: Mentioned): boolean {
	return (
		mentioned.mentionEveryone === true ||
		(instance.phoneNumber !== null && (mentioned.mentions ?? []).includes(instance.phoneNumber))
	);
}
