import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { Message } from '../../../../src/client/resources/messages';
import { locatorValue } from '../../../shared/locator';
import { downloadMessageFile, NO_FILES_FOR_TOOLS } from '../../../shared/message-files';
import type { OperationContext } from '../../../shared/resources';
import { inToolMode } from '../../../shared/tool-mode';
import { instanceLocator } from '../instance/locator';
import { messageIdField, messageIdOf } from './messageId';

export const option = {
	name: 'Download Media',
	value: 'downloadMedia',
	action: 'Download the file of a message',
	description:
		'Get the image, voice note, video or document of a sent or received message as a file, with the message beside it',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance the message was sent or received on' },
	{
		...messageIdField,
		hint: 'After a Multichannel Trigger: {{ $json.data.id }}, with its instance {{ $json.data.instanceId }} (by ID)',
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'e.g. data',
		hint: 'The name of the output binary field to put the file in',
		displayOptions: { show: { '@tool': [false] } },
	},
	{
		displayName: `${NO_FILES_FOR_TOOLS} As a tool, this operation answers with the message and the name, type, size and SHA-256 of its file.`,
		name: 'toolNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { '@tool': [true] } },
	},
];

export const scope = api.workspace.messages.downloadMedia.scope;

/** The JSON beside the file: the message, as the service describes it (with its `media`). */
export const output = Message;

export const fields = {
	instanceId: 'Instance',
	messageId: 'Message ID',
	binaryPropertyName: 'Put Output File in Field',
};

/** Its item carries the file: `execute` answers `{ json, binary }`. */
export const outputsBinary = true;

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
): Promise<INodeExecutionData> {
	const messageId = messageIdOf(this, itemIndex);
	const message = await client.messages.get({
		instanceId: locatorValue(this, 'instanceId', itemIndex),
		messageId,
	});
	const json = message as IDataObject;
	if (!message.media) {
		throw new NodeOperationError(
			this.getNode(),
			`Message ${messageId} has no file to download: it is ${message.type ? `a ${message.type} message` : 'a message'} without media [item ${itemIndex}]`,
			{ itemIndex },
		);
	}
	// An agent gets no binary data from a tool: it is told what the file is instead.
	if (inToolMode(this)) return { json: { ...json, file: NO_FILES_FOR_TOOLS } };

	const property = (this.getNodeParameter('binaryPropertyName', itemIndex) as string).trim();
	const file = await downloadMessageFile(client, messageId, message.media);
	const binary = await this.helpers.prepareBinaryData(file.data, file.fileName, file.mimeType);
	return { json, binary: { [property]: binary } };
}
