import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { WorkspaceClient } from '../../../../src/client';
import { MAX_LENGTH } from '../../../../src/client/resources/message-sends';
import type { OperationContext } from '../../../shared/resources';
import { compact } from '../../../shared/values';
import { sendFile, sourceFieldNames, sourceFields } from './fileSend';
import { mentionFieldNames, mentionOptions, readMentions } from './mentions';
import * as send from './send';

export const option = {
	name: 'Send Media',
	value: 'sendMedia',
	action: 'Send a media message',
	description: 'Send an image, video, audio file or document, from binary data or a URL',
};

type MediaType = 'image' | 'video' | 'audio' | 'document';

export const description: INodeProperties[] = [
	send.fromField,
	send.toField,
	...sourceFields('e.g. https://example.com/brochure.pdf'),
	{
		displayName: 'Media Type',
		name: 'mediaType',
		type: 'options',
		default: 'auto',
		options: [
			{ name: 'Audio', value: 'audio' },
			{
				name: 'Detect From File',
				value: 'auto',
				description: 'From the MIME type of the file (or the extension in the URL)',
			},
			{ name: 'Document', value: 'document' },
			{ name: 'Image', value: 'image' },
			{ name: 'Video', value: 'video' },
		],
		description: 'How the file is shown to the recipient',
	},
	{
		displayName: 'Caption',
		name: 'caption',
		type: 'string',
		default: '',
		typeOptions: { rows: 2 },
		placeholder: 'e.g. Our new menu',
		description: `Text shown with the file, up to ${MAX_LENGTH.caption} characters`,
	},
	send.optionsField([
		{
			// Where the caption was kept before it had a field of its own: n8n keeps only the options it knows,
			// so this one stays, shown only in workflows that still hold a caption here.
			displayName: 'Caption (Moved Above)',
			name: 'caption',
			type: 'string',
			default: '',
			typeOptions: { rows: 2 },
			description:
				'The caption of workflows saved before Caption had a field of its own; it is sent when that field is empty. Move it to the Caption field above.',
			displayOptions: { show: { caption: [{ _cnd: { exists: true } }] } },
		},
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'e.g. invoice-1042.pdf',
			description: 'The name the recipient sees; by default the name of the file',
		},
		send.trackLinksOption('caption'),
		...mentionOptions('caption'),
	]),
];

export const { scope, readsNumbers, output, concurrent } = send.operationBasics('sendMediaUpload');

export const fields = {
	...send.fieldNames,
	...sourceFieldNames,
	'body.mediaType': 'Media Type',
	'body.caption': 'Caption',
	'body.fileName': 'File Name',
	...mentionFieldNames,
};

const EXTENSIONS: Record<string, MediaType> = {
	jpg: 'image',
	jpeg: 'image',
	png: 'image',
	gif: 'image',
	webp: 'image',
	mp4: 'video',
	mov: 'video',
	webm: 'video',
	mp3: 'audio',
	ogg: 'audio',
	opus: 'audio',
	m4a: 'audio',
	wav: 'audio',
};

function mediaTypeOf(mimeType: string | undefined, name: string | undefined): MediaType {
	const main = mimeType?.split('/')[0];
	if (main === 'image' || main === 'video' || main === 'audio') return main;
	if (mimeType) return 'document';
	const extension = /\.([a-z0-9]+)(?:$|[?#])/i.exec(name ?? '')?.[1]?.toLowerCase() ?? '';
	return EXTENSIONS[extension] ?? 'document';
}

export async function execute(this: IExecuteFunctions, item: OperationContext<WorkspaceClient>) {
	const { itemIndex } = item;
	const options = item.options as { caption?: string; fileName?: string };
	const { instanceId, to } = send.target(this, item);
	const chosen = this.getNodeParameter('mediaType', itemIndex) as MediaType | 'auto';
	// Workflows saved before the caption had a field of its own keep it under Options: still sent.
	const written = (this.getNodeParameter('caption', itemIndex, '') as string) || options.caption;
	const { text: caption, ...mentions } = readMentions(this, item, to, written);
	const common = compact({
		to,
		...send.quoted(item.options),
		caption,
		fileName: options.fileName?.trim(),
		...send.trackLinks(item.options),
		...mentions,
	});
	return await sendFile(this, item, instanceId, common, {
		mediaType: (mimeType, name) => (chosen === 'auto' ? mediaTypeOf(mimeType, name) : chosen),
	});
}
