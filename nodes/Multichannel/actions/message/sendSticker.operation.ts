import type { INodeProperties } from 'n8n-workflow';

import { STICKER } from '../../../../src/client/resources/voice-sticker';
import { fileOfKindOperation, sourceFields } from './fileSend';
import * as send from './send';
import { sticker } from './voiceSticker';

export const option = {
	name: 'Send Sticker',
	value: 'sendSticker',
	action: 'Send a sticker',
	description: `Send a WebP image as a sticker (at most ${STICKER.maxBytes / 1024} KiB), from binary data or a URL`,
};

export const description: INodeProperties[] = [
	send.fromField,
	send.toField,
	...sourceFields('e.g. https://example.com/thanks.webp'),
	{
		displayName: `The file must be a WebP image of at most ${STICKER.maxBytes / 1024} KiB (512×512 pixels is what stickers use); other images are refused, saying why.`,
		name: 'stickerNotice',
		type: 'notice',
		default: '',
	},
	send.optionsField(),
];

export const { scope, readsNumbers, output, concurrent, fields, execute } =
	fileOfKindOperation(sticker);
