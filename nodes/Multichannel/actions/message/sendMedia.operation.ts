import { createHash } from 'crypto';
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { MAX_LENGTH } from '../../../../src/client/resources/message-sends';
import { NO_FILES_FOR_TOOLS } from '../../../shared/message-files';
import type { OperationContext } from '../../../shared/resources';
import { compact } from '../../../shared/values';
import * as send from './send';

export const option = {
	name: 'Send Media',
	value: 'sendMedia',
	action: 'Send a media message',
	description: 'Send an image, video, audio file or document, from binary data or a URL',
};

type MediaType = 'image' | 'video' | 'audio' | 'document';

const fromUrl = {
	name: 'URL',
	value: 'url',
	description: 'A public address the service downloads the file from',
};

export const description: INodeProperties[] = [
	send.fromField,
	send.toField,
	{
		displayName: 'Source',
		name: 'source',
		type: 'options',
		default: 'binary',
		options: [
			{
				name: 'Binary File',
				value: 'binary',
				description: 'A file of the input item, such as one a previous node downloaded or read',
			},
			fromUrl,
		],
		description: 'Where the file comes from',
		displayOptions: { show: { '@tool': [false] } },
	},
	{
		// As an agent's tool: n8n passes a tool no binary data, so the file can only come from a URL.
		displayName: 'Source',
		name: 'source',
		type: 'options',
		default: 'url',
		options: [fromUrl],
		description: `Where the file comes from: a URL, since ${NO_FILES_FOR_TOOLS.charAt(0).toLowerCase()}${NO_FILES_FOR_TOOLS.slice(1)}`,
		displayOptions: { show: { '@tool': [true] } },
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'e.g. data',
		hint: 'The name of the input field containing the binary file data to be sent',
		displayOptions: { show: { source: ['binary'] } },
	},
	{
		displayName: 'File URL',
		name: 'url',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. https://example.com/brochure.pdf',
		description: 'A public http(s) address of the file; the service downloads it from there',
		displayOptions: { show: { source: ['url'] } },
	},
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
	]),
];

export const scope = api.workspace.messages.sendMediaUpload.scope;

export const readsNumbers = true;
export const output = api.workspace.messages.sendMediaUpload.response;

export const concurrent = true;

export const fields = {
	...send.fieldNames,
	'body.url': 'File URL',
	'body.mediaType': 'Media Type',
	'body.caption': 'Caption',
	'body.fileName': 'File Name',
	file: 'Input Binary Field',
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

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex, defaultCountry }: OperationContext<WorkspaceClient>,
) {
	const { instanceId, to } = send.target(this, itemIndex, defaultCountry);
	const source = this.getNodeParameter('source', itemIndex) as 'binary' | 'url';
	const chosen = this.getNodeParameter('mediaType', itemIndex) as MediaType | 'auto';
	const options = this.getNodeParameter('options', itemIndex, {}) as {
		caption?: string;
		fileName?: string;
	};
	// Workflows saved before the caption had a field of its own keep it under Options: still sent.
	const caption = (this.getNodeParameter('caption', itemIndex, '') as string) || options.caption;
	const common = compact({
		to,
		...send.quoted(this, itemIndex),
		caption,
		fileName: options.fileName?.trim(),
		...send.trackLinks(this, itemIndex),
	});

	if (source === 'url') {
		const url = (this.getNodeParameter('url', itemIndex) as string).trim();
		const body = {
			...common,
			url,
			mediaType: chosen === 'auto' ? mediaTypeOf(undefined, url) : chosen,
		};
		return await send.message(this, client, itemIndex, 'sendMedia', instanceId, body);
	}

	const property = (this.getNodeParameter('binaryPropertyName', itemIndex) as string).trim();
	const binary = this.helpers.assertBinaryData(itemIndex, property);
	const data = await this.helpers.getBinaryDataBuffer(itemIndex, property);
	const mimeType = binary.mimeType || 'application/octet-stream';
	const fileName =
		binary.fileName || `file${binary.fileExtension ? `.${binary.fileExtension}` : ''}`;
	const body = {
		...common,
		mediaType: chosen === 'auto' ? mediaTypeOf(binary.mimeType, fileName) : chosen,
		...send.sendAt(this, itemIndex),
	};
	// The file is part of what is sent: its hash (not its bytes) goes into the derived key.
	const sha256 = createHash('sha256').update(data).digest('hex');
	return await client.messages.sendMediaUpload(
		{ instanceId, body, file: { data, fileName, mimeType } },
		{
			idempotencyKey: send.idempotencyKey(this, itemIndex, 'sendMedia', instanceId, {
				...body,
				file: { fileName, mimeType, sha256 },
			}),
		},
	);
}
