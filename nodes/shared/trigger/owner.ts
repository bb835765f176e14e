import { createHash } from 'crypto';
import type { IHookFunctions } from 'n8n-workflow';

import { modeOfUrl, type WebhookMode } from './registrations';

/**
 * Who a registration belongs to, for the service (the registration's `owner`): one trigger node of one
 * workflow of one n8n instance, and which of its two URLs. The service keeps one webhook per owner and replaces
 * it in place when the same owner registers again (a new URL, a reactivation), keeping its pending deliveries;
 * so the key must stay the same for the life of the trigger, and differ between its production and test
 * webhooks, which live side by side. Hashed: the service learns nothing about the instance from it.
 */

/** Whether a lifecycle call is for the editor's test URL: n8n runs those in mode `manual`. */
export function lifecycleMode(context: IHookFunctions, url: string): WebhookMode {
	return context.getMode() === 'manual' ? 'test' : modeOfUrl(url);
}

function instanceIdOf(context: IHookFunctions): string {
	try {
		return context.getInstanceId();
	} catch {
		// An n8n (or a harness) without instance settings: the workflow and node ids still tell triggers apart.
		return '';
	}
}

export function ownerOf(context: IHookFunctions, mode: WebhookMode): string {
	const parts = [instanceIdOf(context), context.getWorkflow().id ?? '', context.getNode().id, mode];
	return `n8n-${createHash('sha256').update(JSON.stringify(parts)).digest('hex')}`;
}
