import type { INodeProperties } from 'n8n-workflow';

/** Name, email and tags: the fields a contact has besides its number, for create and update. */
export const contactDetailFields: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		default: '',
		placeholder: 'e.g. nathan@example.com',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		placeholder: 'e.g. Ana Silva',
	},
	{
		displayName: 'Tags',
		name: 'tags',
		type: 'string',
		default: '',
		placeholder: 'e.g. customer, vip',
		description: 'Labels separated by commas; on update they replace the current ones',
	},
];

export const contactFieldNames = {
	instanceId: 'Instance',
	contactId: 'Contact',
	'body.phoneNumber': 'Phone Number',
	'body.name': 'Name',
	'body.email': 'Email',
	'body.tags': 'Tags',
};
