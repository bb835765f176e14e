import { createHash } from 'crypto';
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { invalidValue } from '../../../shared/input-errors';
import { NO_FILES_FOR_TOOLS } from '../../../shared/message-files';
import * as send from './send';

/**
 * What the sends of a file share (Send Media, Send Voice Note, Send Sticker): where the file comes from (a binary
 * field of the item, or a URL; only a URL as an AI tool, which gets no binary data), and sending it under the
 * send's idempotency key, an uploaded file by its hash.
 */

const fromUrl = {
	name: 'URL',
	value: 'url',
	description: 'A public address the service downloads the file from',
};

/** Source, Input Binary Field and File URL. */
export function sourceFields(urlPlaceholder: string): INodeProperties[] {
	return [
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
			placeholder: urlPlaceholder,
			description: 'A public http(s) address of the file; the service downloads it from there',
			displayOptions: { show: { source: ['url'] } },
		},
	];
}

export const sourceFieldNames = {
	'body.url': 'File URL',
	file: 'Input Binary Field',
};

/** How a file send chooses its media type and checks its file before sending it. */
export interface FileKind {
	/** The media type, from the file's MIME type (undefined for a URL) and its name or URL. */
	mediaType(mimeType: string | undefined, name: string): MediaType;
	/** Why this file cannot be sent so (checked before any request), or undefined. */
	problem?(file: { mimeType?: string; name: string; data?: Buffer }): string | undefined;
}

type UploadBody = NonNullable<
	Parameters<WorkspaceClient['messages']['sendMediaUpload']>[0]
>['body'];
type MediaType = UploadBody['mediaType'];
type FileSendBody = Omit<UploadBody, 'mediaType'>;

/** Sends the item's file (binary field or URL) with `common` (recipient, caption…) as `kind` says. */
export async function sendFile(
	context: IExecuteFunctions,
	item: OperationContext<WorkspaceClient>,
	instanceId: string,
	common: FileSendBody,
	kind: FileKind,
) {
	const { client, itemIndex } = item;
	const source = context.getNodeParameter('source', itemIndex) as 'binary' | 'url';
	if (source === 'url') {
		const url = (context.getNodeParameter('url', itemIndex) as string).trim();
		refuse(context, itemIndex, 'File URL', kind.problem?.({ name: url }));
		const body = { ...common, url, mediaType: kind.mediaType(undefined, url) };
		return await send.message(context, item, 'sendMedia', instanceId, body);
	}

	const property = (context.getNodeParameter('binaryPropertyName', itemIndex) as string).trim();
	const binary = context.helpers.assertBinaryData(itemIndex, property);
	const data = await context.helpers.getBinaryDataBuffer(itemIndex, property);
	const mimeType = binary.mimeType || 'application/octet-stream';
	const fileName =
		binary.fileName || `file${binary.fileExtension ? `.${binary.fileExtension}` : ''}`;
	refuse(
		context,
		itemIndex,
		'Input Binary Field',
		kind.problem?.({ mimeType: binary.mimeType, name: fileName, data }),
	);
	const body = {
		...common,
		mediaType: kind.mediaType(binary.mimeType, fileName),
		...send.sendAt(context, item),
	};
	// The file is part of what is sent: its hash (not its bytes) goes into the derived key.
	const sha256 = createHash('sha256').update(data).digest('hex');
	return await send.once(
		context,
		item,
		'sendMedia',
		instanceId,
		{ ...body, file: { fileName, mimeType, sha256 } },
		async (idempotencyKey) =>
			await client.messages.sendMediaUpload(
				{ instanceId, body, file: { data, fileName, mimeType } },
				{ idempotencyKey },
			),
	);
}

function refuse(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
	problem: string | undefined,
): void {
	if (problem !== undefined) throw invalidValue(context.getNode(), field, itemIndex, problem);
}

/** What Send Voice Note and Send Sticker export beside their option and fields: a file of one kind, no caption. */
export function fileOfKindOperation(kind: FileKind) {
	return {
		...send.operationBasics('sendMediaUpload'),
		fields: { ...send.fieldNames, ...sourceFieldNames },
		async execute(this: IExecuteFunctions, item: OperationContext<WorkspaceClient>) {
			const { instanceId, to } = send.target(this, item);
			const common = { to, ...send.quoted(item.options) };
			return await sendFile(this, item, instanceId, common, kind);
		},
	};
}
