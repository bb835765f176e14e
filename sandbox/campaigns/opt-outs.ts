import type { SandboxCore } from '../core';
import type { OptOutRecord } from '../store/store';

/**
 * The workspace's opted-out numbers, one record each (`<workspaceId>/<phone>`), so that a campaign checks a
 * number in one lookup when its send is due. Opting out and back in are events (`contact.opted_out`,
 * `contact.opted_in`); a plain 1:1 send never looks here.
 */

const optOutId = (workspaceId: string, phone: string) => `${workspaceId}/${phone}`;

export function findOptOut(
	core: SandboxCore,
	workspaceId: string,
	phone: string,
): OptOutRecord | undefined {
	return core.store.find('optOuts', workspaceId, optOutId(workspaceId, phone));
}

export function isOptedOut(core: SandboxCore, workspaceId: string, phone: string): boolean {
	return findOptOut(core, workspaceId, phone) !== undefined;
}

/** Opts a number out (kept as it is when it is already); emits `contact.opted_out` when new. */
export function optOut(
	core: SandboxCore,
	workspaceId: string,
	phone: string,
	from: Pick<OptOutRecord, 'source' | 'campaignId' | 'instanceId' | 'reason'>,
): OptOutRecord {
	const existing = findOptOut(core, workspaceId, phone);
	if (existing) return existing;
	const record = core.store.insert('optOuts', {
		id: optOutId(workspaceId, phone),
		workspaceId,
		phone,
		...from,
		since: core.now().toISOString(),
	});
	core.emit(workspaceId, 'contact.opted_out', optOutChange(core, record));
	return record;
}

/** Opts a number back in; emits `contact.opted_in` when it was opted out. */
export function optIn(core: SandboxCore, workspaceId: string, phone: string): void {
	const existing = findOptOut(core, workspaceId, phone);
	if (!existing) return;
	core.store.remove('optOuts', existing.id);
	core.emit(workspaceId, 'contact.opted_in', {
		...optOutChange(core, existing),
		source: 'api',
		campaignId: null,
		instanceId: null,
	});
}

function optOutChange(core: SandboxCore, record: OptOutRecord) {
	return {
		phone: record.phone,
		source: record.source,
		campaignId: record.campaignId,
		instanceId: record.instanceId,
		at: core.now().toISOString(),
	};
}

/** A number as the API shows it: opted out (since when, how) or not. */
export function presentOptOut(phone: string, record: OptOutRecord | undefined) {
	return {
		phone,
		optedOut: record !== undefined,
		since: record?.since ?? null,
		source: record?.source ?? null,
		campaignId: record?.campaignId ?? null,
		reason: record?.reason ?? null,
	};
}

/** The workspace's opt-outs, latest first. */
export function optOutsOf(core: SandboxCore, workspaceId: string): OptOutRecord[] {
	return core.store.all('optOuts', (record) => record.workspaceId === workspaceId).reverse();
}
