/**
 * The open groups of held events (gathered bursts, batches) of each workspace, oldest first: kept beside the
 * store, so that a bound on how many are open needs no scan. A change undone (a request that failed) may leave an
 * id whose group is gone, dropped when met, or a group put back without its id, added again at its next event.
 */
export class OpenGroups {
	private readonly byWorkspace = new Map<string, Set<string>>();

	constructor(
		/** Open groups per workspace; one more delivers that workspace's oldest at once. */
		private readonly bound: number,
		/** Delivers the group now if it is still open; answers whether it was. */
		private readonly flushIfOpen: (id: string) => boolean,
	) {}

	of(workspaceId: string): Set<string> {
		let open = this.byWorkspace.get(workspaceId);
		if (!open) this.byWorkspace.set(workspaceId, (open = new Set()));
		return open;
	}

	delete(workspaceId: string, id: string): void {
		this.byWorkspace.get(workspaceId)?.delete(id);
	}

	/** Delivers the workspace's oldest groups until one more is within the bound. */
	makeRoom(workspaceId: string): void {
		const open = this.of(workspaceId);
		for (const id of open) {
			if (open.size < this.bound) return;
			if (!this.flushIfOpen(id)) open.delete(id);
		}
	}
}
