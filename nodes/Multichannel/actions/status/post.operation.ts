import { createHash } from 'crypto';
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { MAX_LENGTH } from '../../../../src/client/resources/message-sends';
import { MAX_STATUS_TEXT } from '../../../../src/client/resources/statuses';
import { optionsCollection } from '../../../shared/collections';
import { rerunProtectionOption, sendOnce } from '../../../shared/idempotency';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { compact } from '../../../shared/values';
import { instanceLocator } from '../instance/locator';

export const option = {
	name: 'Post',
	value: 'post',
	action: 'Post a status',
	description:
		'Post a status (story) for 24 hours: a text on a background colour, or an image or a video (binary or URL) with a caption',
};

const show = (values: Record<string, string[]>) => ({ displayOptions: { show: values } });
const media = { type: ['image', 'video'] };

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance whose contacts see the status' },
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		default: 'text',
		options: [
			{ name: 'Text', value: 'text' },
			{ name: 'Image', value: 'image' },
			{ name: 'Video', value: 'video' },
		],
		description: 'What the status shows',
	},
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		default: '',
		required: true,
		typeOptions: { rows: 3 },
		placeholder: 'e.g. Open on Sunday 10–14',
		description: `Up to ${MAX_STATUS_TEXT} characters`,
		...show({ type: ['text'] }),
	},
	{
		displayName: 'Background Color',
		name: 'backgroundColor',
		type: 'color',
		default: '#128c7e',
		description: 'The colour behind the text',
		...show({ type: ['text'] }),
	},
	{
		displayName: 'Source',
		name: 'source',
		type: 'options',
		default: 'binary',
		options: [
			{ name: 'Binary File', value: 'binary', description: 'A file of the input item' },
			{ name: 'URL', value: 'url', description: 'A public address the service downloads it from' },
		],
		description: 'Where the image or video comes from',
		...show(media),
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the input field containing the binary file data to be posted',
		displayOptions: { show: { ...media, source: ['binary'] } },
	},
	{
		displayName: 'File URL',
		name: 'url',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. https://example.com/menu.jpg',
		description: 'A public http(s) address of the image or video',
		displayOptions: { show: { ...media, source: ['url'] } },
	},
	{
		displayName: 'Caption',
		name: 'caption',
		type: 'string',
		default: '',
		typeOptions: { rows: 2 },
		description: `Text shown with the image or video, up to ${MAX_LENGTH.caption} characters`,
		...show(media),
	},
	optionsCollection([rerunProtectionOption]),
];

export const scope = api.workspace.statuses.post.scope;
export const output = api.workspace.statuses.post.response;

export const fields = {
	instanceId: 'Instance',
	'body.type': 'Type',
	'body.text': 'Text',
	'body.backgroundColor': 'Background Color',
	'body.url': 'File URL',
	'body.caption': 'Caption',
	file: 'Input Binary Field',
};

/**
 * Posts an item once (`sendOnce`): run again with the same item within the Re-Run Protection window, or retried
 * by n8n, it gets the status already posted. The key is derived as the sends derive theirs.
 */
const postOnce = <T extends { id: string; createdAt?: string }>(
	context: IExecuteFunctions,
	{ client, itemIndex, options }: OperationContext<WorkspaceClient>,
	request: object,
	post: (idempotencyKey: string) => Promise<T>,
) =>
	sendOnce(
		context,
		itemIndex,
		options,
		{ operation: 'postStatus', body: request },
		post,
		() => client.serverTime,
	);

export async function execute(this: IExecuteFunctions, item: OperationContext<WorkspaceClient>) {
	const { client, itemIndex } = item;
	const instanceId = locatorValue(this, 'instanceId', itemIndex);
	const type = this.getNodeParameter('type', itemIndex) as 'text' | 'image' | 'video';
	if (type === 'text') {
		const body = {
			type,
			text: this.getNodeParameter('text', itemIndex) as string,
			backgroundColor: (this.getNodeParameter('backgroundColor', itemIndex) as string).trim(),
		};
		return await postOnce(this, item, { instanceId, body }, async (idempotencyKey) =>
			client.statuses.post({ instanceId, body }, { idempotencyKey }),
		);
	}
	const caption = compact({ caption: this.getNodeParameter('caption', itemIndex, '') as string });
	if (this.getNodeParameter('source', itemIndex) === 'url') {
		const url = (this.getNodeParameter('url', itemIndex) as string).trim();
		const body = { type, url, ...caption };
		return await postOnce(this, item, { instanceId, body }, async (idempotencyKey) =>
			client.statuses.post({ instanceId, body }, { idempotencyKey }),
		);
	}
	const property = (this.getNodeParameter('binaryPropertyName', itemIndex) as string).trim();
	const binary = this.helpers.assertBinaryData(itemIndex, property);
	const data = await this.helpers.getBinaryDataBuffer(itemIndex, property);
	const mimeType = binary.mimeType || 'application/octet-stream';
	const fileName =
		binary.fileName || `${type}${binary.fileExtension ? `.${binary.fileExtension}` : ''}`;
	const body = { type, ...caption };
	const sha256 = createHash('sha256').update(data).digest('hex');
	const request = { instanceId, body, file: { fileName, mimeType, sha256 } };
	return await postOnce(this, item, request, async (idempotencyKey) =>
		client.statuses.postUpload(
			{ instanceId, body, file: { data, fileName, mimeType } },
			{ idempotencyKey },
		),
	);
}
