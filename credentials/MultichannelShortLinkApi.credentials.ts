import type {
	IAuthenticate,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { bearerAuthentication, keyProperties, keyTest, SHORT_LINK_CREDENTIAL } from './common';

export class MultichannelShortLinkApi implements ICredentialType {
	name = 'multichannelShortLinkApi';

	displayName = 'Multichannel Short Link API';

	icon: Icon = {
		light: 'file:../icons/short-link.svg',
		dark: 'file:../icons/short-link.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-multichannel/n8n-nodes-multichannel#credentials';

	properties: INodeProperties[] = keyProperties(SHORT_LINK_CREDENTIAL);

	authenticate: IAuthenticate = bearerAuthentication;

	test: ICredentialTestRequest = keyTest(SHORT_LINK_CREDENTIAL);
}
