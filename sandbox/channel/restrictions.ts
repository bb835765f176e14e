import type { SandboxCore } from '../core';
import type { InstanceRecord } from '../store/store';

/**
 * The channel limiting an instance (SERVICE.md, "people"): a warning before a ban, with the reason and until
 * when, kept on the instance and announced as `instance.restricted`. The sandbox still sends while restricted:
 * it is the warning a workflow reacts to (slow a campaign down, tell someone), not the ban.
 */

export const RESTRICTION_REASONS = {
	spam_reports: 'Many people reported or blocked this number',
	unusual_activity: 'Unusual activity: many messages to people who never wrote first',
	policy_violation: 'Messages against the channel’s policy',
} as const;

export type RestrictionReason = keyof typeof RESTRICTION_REASONS;

export function restrictInstance(
	core: SandboxCore,
	instance: InstanceRecord,
	input: { reason: RestrictionReason; hours?: number },
) {
	const now = core.now();
	const restriction = {
		reason: input.reason,
		description: RESTRICTION_REASONS[input.reason],
		until:
			input.hours === undefined
				? null
				: new Date(now.getTime() + input.hours * 3_600_000).toISOString(),
		restrictedAt: now.toISOString(),
	};
	instance.restriction = restriction;
	instance.updatedAt = restriction.restrictedAt;
	const event = { id: instance.id, instanceId: instance.id, ...restriction };
	core.emit(instance.workspaceId, 'instance.restricted', event);
	return event;
}
