import { Group } from '../../../../src/client/resources/groups';
import { z } from '../../../../src/client/zod';
import { compact } from '../../../shared/values';

/** The essentials of a group: its name, description, size and settings, without the participant list. */
export const SimpleGroup = z.object({
	...Group.pick({ id: true, instanceId: true, subject: true }).shape,
	description: z.string().optional(),
	owner: z.string().optional(),
	participantCount: z.number().int().optional(),
	announcementsOnly: z.boolean().optional(),
	locked: z.boolean().optional(),
	createdAt: Group.shape.createdAt,
});

export function simplifyGroup(group: Group): z.output<typeof SimpleGroup> {
	return compact({
		id: group.id,
		instanceId: group.instanceId,
		subject: group.subject,
		description: group.description ?? undefined,
		owner: group.owner ?? undefined,
		participantCount: group.participants?.length,
		announcementsOnly: group.settings?.announcementsOnly,
		locked: group.settings?.locked,
		createdAt: group.createdAt,
	});
}
