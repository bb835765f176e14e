import type { IWebhookFunctions } from 'n8n-workflow';

import type { ConnectedClient } from '../connections';
import type { Registration } from './registrations';
import type { ServiceAccess, TriggerSpec } from './spec';

/**
 * A delivery's access to the service (`ServiceAccess`): without a key through the base URL kept with its
 * registration, with the credential read once otherwise, every call within the delivery's deadline.
 */

export function serviceAccess<C, E extends string>(
	context: IWebhookFunctions,
	spec: TriggerSpec<C, E>,
	registration: Registration,
	deadline: number,
): ServiceAccess<C> {
	let keyed: Promise<ConnectedClient<C>> | undefined;
	return {
		...(registration.serviceUrl
			? {
					serviceUrl: registration.serviceUrl,
					unauthenticated: spec.connection.unauthenticated(context, registration.serviceUrl),
				}
			: {}),
		keyed: () => (keyed ??= spec.connection.connect(context)),
		deadline,
	};
}
