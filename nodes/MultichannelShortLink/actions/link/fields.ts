/** Field names of a link's request, as the user sees them, for create and update. */
export const linkFieldNames = {
	linkId: 'Link',
	'body.url': 'Destination URL',
	'body.code': 'Custom Code',
	'body.title': 'Title',
	'body.tags': 'Tags',
	'body.expiresAt': 'Expires At',
};
