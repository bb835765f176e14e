import type {
	IAuthenticate,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { bearerAuthentication, keyProperties, keyTest, AUTOMATION_CREDENTIAL } from './common';

export class MultichannelAutomationApi implements ICredentialType {
	name = 'multichannelAutomationApi';

	displayName = 'Multichannel Automation API';

	icon: Icon = {
		light: 'file:../icons/automation.svg',
		dark: 'file:../icons/automation.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-multichannel/n8n-nodes-multichannel#credentials';

	properties: INodeProperties[] = keyProperties(AUTOMATION_CREDENTIAL);

	authenticate: IAuthenticate = bearerAuthentication;

	test: ICredentialTestRequest = keyTest(AUTOMATION_CREDENTIAL);
}
