import type { WorkspaceClient } from '../../../../src/client';
import { defineResource } from '../../../shared/resources';
import * as deleteMessage from './delete.operation';
import * as downloadMedia from './downloadMedia.operation';
import * as edit from './edit.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as markRead from './markRead.operation';
import * as sendButtons from './sendButtons.operation';
import * as sendContactCard from './sendContactCard.operation';
import * as sendList from './sendList.operation';
import * as sendLocation from './sendLocation.operation';
import * as sendMedia from './sendMedia.operation';
import * as sendAndWait from './sendAndWait/sendAndWait.operation';
import * as getPollResults from './getPollResults.operation';
import * as sendPoll from './sendPoll.operation';
import * as sendReaction from './sendReaction.operation';
import * as sendText from './sendText.operation';
import * as sendTyping from './sendTyping.operation';
import * as sendVoiceNote from './sendVoiceNote.operation';
import * as sendSticker from './sendSticker.operation';

/** Messages: sends of every kind (interactive ones too), edits, typing, their status, a chat's history, read receipts and deletion. */
export const message = defineResource<WorkspaceClient>({
	name: 'Message',
	value: 'message',
	noun: 'message',
	operations: [
		sendText,
		sendMedia,
		sendLocation,
		sendContactCard,
		sendReaction,
		sendPoll,
		sendButtons,
		sendList,
		sendTyping,
		sendAndWait,
		get,
		getAll,
		edit,
		markRead,
		deleteMessage,
		downloadMedia,
		getPollResults,
		sendVoiceNote,
		sendSticker,
	],
	defaultOperation: sendText.option.value,
});
