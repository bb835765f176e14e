import type { Scope } from '../../../src/client';
import type { NodeError } from '../error-context';
import { toNodeError } from '../errors';
import { gatherFieldNames } from '../gather';
import { batchFieldNames } from './batch';
import type { TriggerContext, TriggerSpec } from './spec';

/** An error of a trigger's call to the service (a registration, a claim, a repair), as the node shows it. */

const FIELD_NAMES = {
	webhookId: 'Webhook',
	'body.url': 'Webhook URL',
	'body.events': 'Events',
	'body.filters.instanceIds': 'Instances',
	'body.filters.linkIds': 'Links',
	...gatherFieldNames,
	...batchFieldNames,
};

/** What an error message must know of the call: the values never to show, and the service's address. */
export interface Known {
	secrets: string[];
	serviceUrl?: string;
}

/** An error of a call to the service, as the node shows it: mapped, with every secret kept out. */
export function failure<C, E extends string>(
	context: TriggerContext,
	spec: TriggerSpec<C, E>,
	error: unknown,
	scope: Scope,
	known: Known,
): NodeError {
	return toNodeError(context.getNode(), error, {
		keyKind: spec.connection.keyKind,
		scope,
		noun: 'webhook',
		fields: FIELD_NAMES,
		...known,
	});
}
