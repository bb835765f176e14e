import { randomBytes } from 'crypto';

import type { KeyKind } from '../../../src/client/api';
import { GATHER_MAX_WAIT_SECONDS } from '../../../src/client/resources/gathered-messages';
import type { SandboxCore } from '../../core';
import { notFound } from '../../errors';
import { refuseLiveOwner } from '../../delivery/owner-check';
import { newId, type WebhookRecord } from '../../store/store';
import { checkUrl, newestFirst, paginate, type HandlerContext } from './context';
import { presentDelivery, presentWebhook } from '../../present';

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
	batch?: { maxEvents: number; maxWaitSeconds: number } | null;
	description?: string;
	owner?: string;
	requireAcknowledgement?: boolean;
}

const newSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

/** A new signing secret; the one it replaces still verifies signed claims for the grace period. */
function rotate(core: SandboxCore, webhook: WebhookRecord, secret: string): void {
	webhook.previousSecret = webhook.secret;
	webhook.previousSecretUntil = new Date(
		core.now().getTime() + core.deliveryOptions.graceMs,
	).toISOString();
	webhook.secret = secret;
}

/** The gathering a registration asks for, with the cap's default filled in (null: none). */
function gatherOf(input: WebhookInput['gather']): WebhookRecord['gather'] {
	if (!input) return null;
	return {
		quietSeconds: input.quietSeconds,
		maxWaitSeconds: input.maxWaitSeconds ?? GATHER_MAX_WAIT_SECONDS.default,
	};
}

/**
 * Sets what a short-link or automation webhook's batches are (null: none). An open batch is delivered first, under
 * the rules it was opened with, when they change.
 */
function setBatch(core: SandboxCore, webhook: WebhookRecord, batch: WebhookInput['batch']): void {
	if (webhook.surface === 'workspace') return;
	const next = batch ? { maxEvents: batch.maxEvents, maxWaitSeconds: batch.maxWaitSeconds } : null;
	if (JSON.stringify(next) !== JSON.stringify(webhook.batch ?? null)) {
		core.deliveries.batching.flushWebhook(webhook.id);
	}
	webhook.batch = next;
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
	// A webhook its owner deleted moments ago is kept for the grace period, but is gone for the API.
	const find = (core: SandboxCore, workspaceId: string, webhookId: string): WebhookRecord => {
		const webhook = core.store.find('webhooks', workspaceId, webhookId);
		if (!webhook || webhook.surface !== keyKind || webhook.status === 'deleted')
			throw notFound('Webhook', webhookId);
		return webhook;
	};

	/** The webhook an owner already has on this surface, deleted moments ago included. */
	const ownedBy = (core: SandboxCore, workspaceId: string, owner: string | undefined) =>
		owner === undefined
			? undefined
			: core.store
					.all('webhooks')
					.find(
						(webhook) =>
							webhook.workspaceId === workspaceId &&
							webhook.surface === keyKind &&
							webhook.owner === owner,
					);

	/** A registration for an owner that has a webhook: that one, in place, with what it keeps. */
	const replace = (core: SandboxCore, webhook: WebhookRecord, body: WebhookInput) => {
		webhook.url = body.url;
		webhook.events = [...new Set(body.events)];
		webhook.filters = body.filters ?? {};
		if (keyKind === 'workspace') {
			const gather = gatherOf(body.gather);
			if (!gather) core.deliveries.gathering.flushWebhook(webhook.id);
			webhook.gather = gather;
		}
		setBatch(core, webhook, body.batch);
		webhook.description = body.description ?? null;
		webhook.requireAcknowledgement = body.requireAcknowledgement === true;
		rotate(core, webhook, body.secret ?? newSecret());
		// Its owner is back: whatever disabled it is over, and what it kept is delivered.
		core.deliveries.enable(webhook);
		return {
			...presentWebhook(webhook),
			secret: webhook.secret,
			signedClaims: true,
			replaced: true,
		};
	};

	/** A registration: the owner's webhook replaced in place, or a new one. */
	const register = (core: SandboxCore, workspaceId: string, body: WebhookInput) => {
		const owned = ownedBy(core, workspaceId, body.owner);
		if (owned) return replace(core, owned, body);
		const now = core.now().toISOString();
		const webhook = core.store.insert('webhooks', {
			id: newId('wh'),
			workspaceId,
			surface: keyKind,
			url: body.url,
			events: [...new Set(body.events)],
			secret: body.secret ?? newSecret(),
			filters: body.filters ?? {},
			...(keyKind === 'workspace'
				? { gather: gatherOf(body.gather) }
				: { batch: body.batch ?? null }),
			description: body.description ?? null,
			owner: body.owner ?? null,
			requireAcknowledgement: body.requireAcknowledgement === true,
			status: 'active',
			disabledReason: null,
			failedDeliveries: 0,
			createdAt: now,
			updatedAt: now,
		});
		return {
			...presentWebhook(webhook),
			secret: webhook.secret,
			signedClaims: true,
			replaced: false,
		};
	};

	return {
		create: ({ core, workspaceId, body }: Context<WebhookInput>) => {
			checkUrl(body.url, core.outbound.deliveries.policy);
			const owned = ownedBy(core, workspaceId, body.owner);
			if (!owned || owned.url === body.url) return register(core, workspaceId, body);
			// Moving an owner's webhook: not while a live receiver still owns it at the old URL (owner-check.ts).
			return refuseLiveOwner(owned, body.url, core.outbound.deliveries, core.now()).then(() =>
				register(core, workspaceId, body),
			);
		},

		list: ({ core, workspaceId, query }: Context<unknown, Record<string, never>, ListQuery>) =>
			paginate(
				core.store.all(
					'webhooks',
					(webhook) =>
						webhook.workspaceId === workspaceId &&
						webhook.surface === keyKind &&
						webhook.status !== 'deleted',
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
			if (body.batch !== undefined) setBatch(core, webhook, body.batch);
			if (body.description !== undefined) webhook.description = body.description;
			if (body.enabled === true && webhook.status === 'disabled') {
				core.deliveries.enable(webhook);
			} else if (body.enabled === false && webhook.status === 'active') {
				core.deliveries.disable(
					webhook,
					'api',
					'Disabled through the API; its events are kept until it is enabled again.',
				);
			}
			webhook.updatedAt = core.now().toISOString();
			return presentWebhook(webhook);
		},

		rotateSecret: ({ core, workspaceId, params, body }: Context<{ secret?: string }, ById>) => {
			const webhook = find(core, workspaceId, params.webhookId);
			rotate(core, webhook, body.secret ?? newSecret());
			webhook.updatedAt = core.now().toISOString();
			return {
				...presentWebhook(webhook),
				secret: webhook.secret,
				signedClaims: true,
				replaced: false,
			};
		},

		// A webhook with an owner is kept, its deliveries held, for the grace period: n8n republishes a workflow
		// by deleting its webhook and registering it again, and nothing pending should be lost in between.
		delete: ({ core, workspaceId, params }: Context<unknown, ById>) => {
			const webhook = find(core, workspaceId, params.webhookId);
			if (webhook.owner) {
				webhook.status = 'deleted';
				webhook.disabledAt = core.now().toISOString();
				webhook.nextPingAt = null;
				webhook.updatedAt = webhook.disabledAt;
				return;
			}
			core.store.remove('webhooks', webhook.id);
			core.deliveries.forgetWebhook(webhook.id);
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
		// Authenticated by the pipeline with the secret of the webhook in the path (sandbox/http/pipeline/signed.ts).
		claimEventSigned: claim,
	};

	function claim({ core, workspaceId, params, body }: Context<ClaimInput, ById>) {
		return core.engine.leases.claim(
			find(core, workspaceId, params.webhookId),
			body.eventId,
			core.now(),
			body.deliveryId,
			core.announcedEvents,
		);
	}
}
