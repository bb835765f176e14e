import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** The ID of a message, for the operations on one message (get, mark as read, delete, react). */
export const messageIdField: INodeProperties = {
	displayName: 'Message ID',
	name: 'messageId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. msg_3c9e1f7a2b4d6e80',
	description: 'The ID of the message, as returned when it was sent or received',
};

export function messageIdOf(context: IExecuteFunctions, itemIndex: number): string {
	return (context.getNodeParameter('messageId', itemIndex) as string).trim();
}
