import type {
	IAuthenticate,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { bearerAuthentication, keyProperties, keyTest, WORKSPACE_CREDENTIAL } from './common';

export class MultichannelApi implements ICredentialType {
	name = 'multichannelApi';

	displayName = 'Multichannel API';

	icon: Icon = {
		light: 'file:../icons/multichannel.svg',
		dark: 'file:../icons/multichannel.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-multichannel/n8n-nodes-multichannel#credentials';

	properties: INodeProperties[] = keyProperties(WORKSPACE_CREDENTIAL);

	authenticate: IAuthenticate = bearerAuthentication;

	test: ICredentialTestRequest = keyTest(WORKSPACE_CREDENTIAL);
}
