import { randomBytes } from 'crypto';

import type { KeyKind } from '../../src/client/api';
import { GATHER_MAX_WAIT_SECONDS } from '../../src/client/resources/gathered-messages';
import { claimEvent, forgetClaims } from '../claims';
import type { SandboxCore } from '../core';
import { notFound } from '../http';
import { newId, type WebhookRecord } from '../store';
import { checkUrl, newestFirst, paginate, type HandlerContext } from './context';
import { presentDelivery, presentWebhook } from './present';

/**
 * The webhook endpoints, the same on every surface: a webhook belongs to the surface (key kind) that
 * registered it and receives only that surface's events. The secret is shown at creation only.
 */

interface WebhookInput {
	url: string;
	events: string[];
	secret?: string;
	filters?: { instanceIds?: string[]; linkIds?: string[] };
	gather?: { quietSeconds: number; maxWaitSeconds?: number } | null;
	description?: string;
}

/** The gathering a registration asks for, with the cap's default filled in (null: none). */
function gatherOf(input: WebhookInput['gather']): WebhookRecord['gather'] {
	if (!input) return null;
	return {
		quietSeconds: input.quietSeconds,
		maxWaitSeconds: input.maxWaitSeconds ?? GATHER_MAX_WAIT_SECONDS.default,
	};
}

interface WebhookUpdate extends Partial<Omit<WebhookInput, 'secret'>> {
	enabled?: boolean;
}

type Context<Body = unknown, Params = Record<string, never>, Query = unknown> = Omit<
	HandlerContext<unknown>,
	'body' | 'params' | 'query'
> & { body: Body; params: Params; query: Query };

type ById = { webhookId: string };
type ClaimInput = { eventId: string; deliveryId?: string };
type ListQuery = { limit?: number; cursor?: string };

export function webhookHandlers(keyKind: KeyKind) {
	const find = (core: SandboxCore, workspaceId: string, webhookId: string): WebhookRecord => {
		const webhook = core.store.find('webhooks', workspaceId, webhookId);
		if (!webhook || webhook.surface !== keyKind) throw notFound('Webhook', webhookId);
		return webhook;
	};

	return {
		create: ({ core, workspaceId, body }: Context<WebhookInput>) => {
			checkUrl(body.url, core.outbound.deliveries.policy);
			const now = core.now().toISOString();
			const webhook = core.store.insert('webhooks', {
				id: newId('wh'),
				workspaceId,
				surface: keyKind,
				url: body.url,
				events: [...new Set(body.events)],
				secret: body.secret ?? `whsec_${randomBytes(24).toString('base64url')}`,
				filters: body.filters ?? {},
				...(keyKind === 'workspace' ? { gather: gatherOf(body.gather) } : {}),
				description: body.description ?? null,
				status: 'active',
				disabledReason: null,
				failedDeliveries: 0,
				createdAt: now,
				updatedAt: now,
			});
			return { ...presentWebhook(webhook), secret: webhook.secret, signedClaims: true };
		},

		list: ({ core, workspaceId, query }: Context<unknown, Record<string, never>, ListQuery>) =>
			paginate(
				core.store.all(
					'webhooks',
					(webhook) => webhook.workspaceId === workspaceId && webhook.surface === keyKind,
				),
				query,
				presentWebhook,
			),

		get: ({ core, workspaceId, params }: Context<unknown, ById>) =>
			presentWebhook(find(core, workspaceId, params.webhookId)),

		update: ({ core, workspaceId, params, body }: Context<WebhookUpdate, ById>) => {
			const webhook = find(core, workspaceId, params.webhookId);
			if (body.url !== undefined) checkUrl(body.url, core.outbound.deliveries.policy);
			if (body.url !== undefined) webhook.url = body.url;
			if (body.events !== undefined) webhook.events = [...new Set(body.events)];
			if (body.filters !== undefined) webhook.filters = body.filters;
			if (body.gather !== undefined) {
				webhook.gather = gatherOf(body.gather);
				// Held messages go out now rather than under rules the webhook no longer has.
				if (!webhook.gather) core.deliveries.gathering.flushWebhook(webhook.id);
			}
			if (body.description !== undefined) webhook.description = body.description;
			if (body.enabled === true && webhook.status === 'disabled') {
				webhook.status = 'active';
				webhook.disabledReason = null;
				webhook.failedDeliveries = 0;
			} else if (body.enabled === false && webhook.status === 'active') {
				webhook.status = 'disabled';
				webhook.disabledReason = 'Disabled through the API';
			}
			webhook.updatedAt = core.now().toISOString();
			return presentWebhook(webhook);
		},

		delete: ({ core, workspaceId, params }: Context<unknown, ById>) => {
			const webhook = find(core, workspaceId, params.webhookId);
			core.store.remove('webhooks', webhook.id);
			core.deliveries.forgetWebhook(webhook.id);
			forgetClaims(core.store, webhook.id);
		},

		listDeliveries: ({ core, workspaceId, params, query }: Context<unknown, ById, ListQuery>) => {
			const webhook = find(core, workspaceId, params.webhookId);
			const deliveries = core.store.all(
				'deliveries',
				(delivery) => delivery.webhookId === webhook.id,
			);
			return paginate(newestFirst(deliveries), query, presentDelivery);
		},

		claimEvent: claim,
		// Authenticated by the pipeline with the secret of the webhook in the path (sandbox/pipeline/signed.ts).
		claimEventSigned: claim,
	};

	function claim({ core, workspaceId, params, body }: Context<ClaimInput, ById>) {
		return claimEvent(
			core.store,
			find(core, workspaceId, params.webhookId),
			body.eventId,
			core.now(),
			body.deliveryId,
			core.announcedEvents,
		);
	}
}
