import type { INodeProperties } from 'n8n-workflow';

import { VOICE_NOTE } from '../../../../src/client/resources/voice-sticker';
import { fileOfKindOperation, sourceFields } from './fileSend';
import * as send from './send';
import { voiceNote } from './voiceSticker';

export const option = {
	name: 'Send Voice Note',
	value: 'sendVoiceNote',
	action: 'Send a voice note',
	description:
		'Send audio that plays in the chat as a voice note (OGG/Opus), not as an audio file, from binary data or a URL',
};

export const description: INodeProperties[] = [
	send.fromField,
	send.toField,
	...sourceFields('e.g. https://example.com/answer.ogg'),
	{
		displayName: `The file must be OGG audio with the Opus codec (${VOICE_NOTE.mimeType}), as phones record voice notes; other audio is refused, saying why. Convert it first (ffmpeg: -c:a libopus), or send it as an audio file with Send Media.`,
		name: 'voiceNoteNotice',
		type: 'notice',
		default: '',
	},
	send.optionsField(),
];

export const { scope, readsNumbers, output, concurrent, fields, execute } =
	fileOfKindOperation(voiceNote);
