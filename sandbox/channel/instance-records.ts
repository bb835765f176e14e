import type { SandboxCore } from '../core';
import { conflict, notFound } from '../errors';
import type { Collections, InstanceRecord } from '../store/store';

/**
 * Finding an instance and its records by id, as every request and contact action does: a record of another
 * instance (or workspace) is as unknown as a made-up id, and what goes through the channel needs the instance
 * connected.
 */

export function requireInstance(
	core: SandboxCore,
	workspaceId: string,
	instanceId: string,
): InstanceRecord {
	const instance = core.store.find('instances', workspaceId, instanceId);
	if (!instance) throw notFound('Instance', instanceId);
	return instance;
}

/** The collections whose records belong to one instance. */
type OfInstance = 'messages' | 'groups' | 'contacts' | 'answers' | 'calls';

/**
 * How a handler finds a record of one instance, by its id: a record of another instance (or workspace) is
 * as unknown as a made-up id.
 */
export function recordOfInstance<C extends OfInstance>(collection: C, what: string) {
	return (
		core: SandboxCore,
		workspaceId: string,
		instanceId: string,
		id: string,
	): Collections[C] => {
		requireInstance(core, workspaceId, instanceId);
		const record = core.store.find(collection, workspaceId, id);
		if (!record || record.instanceId !== instanceId) throw notFound(what, id);
		return record;
	};
}

/** Writes that go through the channel need a live session. */
export function requireConnected(
	core: SandboxCore,
	workspaceId: string,
	instanceId: string,
): InstanceRecord {
	const instance = requireInstance(core, workspaceId, instanceId);
	if (instance.status !== 'connected') {
		throw conflict(
			'instance_not_connected',
			`Instance ${instance.id} is not connected (status: ${instance.status}). Connect it and scan the QR ` +
				'code (or enter the pairing code) first.',
		);
	}
	return instance;
}

export const requireGroup = recordOfInstance('groups', 'Group');

export const requireMessage = recordOfInstance('messages', 'Message');
