/** What the sandbox keeps of scheduled sends, and how often it looks for due ones (scheduled.ts). */

export interface ScheduledLimits {
	/** Scheduled sends still to go, per workspace; one more is 409 `too_many_scheduled`. */
	pendingPerWorkspace: number;
	/** Sent or cancelled ones kept per workspace, for the list and for a cancel to say why not. */
	finishedPerWorkspace: number;
	/** How often due sends are looked for. */
	tickMs: number;
}

export const DEFAULT_SCHEDULED_LIMITS: ScheduledLimits = {
	pendingPerWorkspace: 1000,
	finishedPerWorkspace: 200,
	tickMs: 1000,
};
