import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { VOICE_NOTE } from '../../../../src/client/resources/voice-sticker';
import type { OperationContext } from '../../../shared/resources';
import { sendFile, sourceFieldNames, sourceFields } from './file-send';
import * as send from './send';
import { voiceNote } from './voice-sticker';

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

export const scope = api.workspace.messages.sendMediaUpload.scope;

export const readsNumbers = true;
export const output = api.workspace.messages.sendMediaUpload.response;

export const concurrent = true;

export const fields = { ...send.fieldNames, ...sourceFieldNames };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex, defaultCountry }: OperationContext<WorkspaceClient>,
) {
	const { instanceId, to } = send.target(this, itemIndex, defaultCountry);
	const common = { to, ...send.quoted(this, itemIndex) };
	return await sendFile(this, client, itemIndex, instanceId, common, voiceNote);
}
