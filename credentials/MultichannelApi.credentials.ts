import type {
	IAuthenticate,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import {
	bearerAuthentication,
	defaultCountryProperty,
	keyProperties,
	keyTest,
	WORKSPACE_CREDENTIAL,
} from './common';

export class MultichannelApi implements ICredentialType {
	name = 'multichannelApi';

	displayName = 'Multichannel API';

	icon: Icon = {
		light: 'file:../icons/multichannel.svg',
		dark: 'file:../icons/multichannel.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-multichannel/n8n-nodes-multichannel#credentials';

	// The Default Country belongs to the workspace: its numbers are typed by people of one country, mostly.
	properties: INodeProperties[] = [...keyProperties(WORKSPACE_CREDENTIAL), defaultCountryProperty];

	authenticate: IAuthenticate = bearerAuthentication;

	test: ICredentialTestRequest = keyTest(WORKSPACE_CREDENTIAL);
}
