import type { IDataObject } from 'n8n-workflow';

import type { Group } from '../../../../src/client/resources/groups';
import { compact } from '../../../shared/values';

/** The essentials of a group: its name, description, size and settings, without the participant list. */
export function simplifyGroup(group: Group): IDataObject {
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
