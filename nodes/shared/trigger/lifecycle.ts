import { randomBytes } from 'crypto';
import { NodeOperationError, type IHookFunctions } from 'n8n-workflow';

import {
	NotFoundError,
	secretFingerprint,
	type BatchOptions,
	type GatherOptions,
	type WebhookEndpoints,
} from '../../../src/client';
import { lifecycleMode, ownerOf } from './owner';
import { chosenOptions, withGathering } from './parameters';
import {
	modeOf,
	registrationFor,
	setRegistration,
	storedRegistrations,
	type StoredRegistration,
} from './registrations';
import { failure, type Known } from './failure';
import type { TriggerSpec } from './spec';

/**
 * The webhook at the service, as n8n activates and deactivates the workflow: `checkExists`, then `create` when
 * it answered false; `delete`. One webhook per trigger and mode (production, test), named by its owner key
 * (owner.ts), with the node's URL and events and a fresh secret; registering again replaces it in place at the
 * service, so its pending deliveries are kept.
 */
export interface WebhookLifecycle {
	checkExists(context: IHookFunctions): Promise<boolean>;
	create(context: IHookFunctions): Promise<boolean>;
	delete(context: IHookFunctions): Promise<boolean>;
}

const DESCRIPTION_MAX = 500;
/** How many earlier URLs a registration remembers (`formerUrls`). */
const FORMER_URLS_MAX = 10;

function webhookUrl(context: IHookFunctions): string {
	const url = context.getNodeWebhookUrl('default');
	if (!url) {
		throw new NodeOperationError(context.getNode(), 'n8n gave no webhook URL for this trigger');
	}
	return url;
}

function sameEvents(a: readonly string[], b: readonly string[]): boolean {
	return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}

/** Whether the service gathers as the node asks (a service that does not say is taken at its word). */
function sameGathering(remote: GatherOptions | null, wanted: GatherOptions | undefined): boolean {
	if (!remote || !wanted) return !remote && !wanted;
	return (
		remote.quietSeconds === wanted.quietSeconds &&
		(remote.maxWaitSeconds === undefined || remote.maxWaitSeconds === wanted.maxWaitSeconds)
	);
}

/** Whether the service batches as the node asks (a service that does not say is taken at its word). */
function sameBatching(remote: BatchOptions | null, wanted: BatchOptions | undefined): boolean {
	if (!remote || !wanted) return !remote && !wanted;
	return remote.maxEvents === wanted.maxEvents && remote.maxWaitSeconds === wanted.maxWaitSeconds;
}

export function webhookLifecycle<C, E extends string>(spec: TriggerSpec<C, E>): WebhookLifecycle {
	/** Deletes a webhook at the service; one that is gone already is fine. */
	async function removeRemote(
		context: IHookFunctions,
		endpoints: WebhookEndpoints<E>,
		webhookId: string,
		known: Known,
	): Promise<void> {
		try {
			await endpoints.delete({ webhookId });
		} catch (error) {
			if (!(error instanceof NotFoundError))
				throw failure(context, spec, error, spec.scopes.write, known);
			context.logger.debug(`Multichannel trigger: webhook ${webhookId} was already deleted`);
		}
	}

	/**
	 * Deletes a webhook left behind by an earlier registration of this mode. A failure is logged, not thrown:
	 * the registration that matters was made, and failing the activation for a leftover would leave the trigger
	 * with none. Its secret is no longer kept, so whatever it still delivers is refused (401) until the service
	 * disables it.
	 */
	async function removeLeftover(
		context: IHookFunctions,
		endpoints: WebhookEndpoints<E>,
		{ registration }: StoredRegistration,
		known: Known,
	): Promise<void> {
		try {
			await removeRemote(context, endpoints, registration.webhookId, {
				secrets: [...known.secrets, registration.secret],
				serviceUrl: known.serviceUrl,
			});
			context.logger.info(
				`Multichannel trigger: deleted webhook ${registration.webhookId}, left behind by an earlier registration`,
			);
		} catch (error) {
			context.logger.warn(
				`Multichannel trigger: could not delete webhook ${registration.webhookId}, left behind by an earlier registration: ${(error as Error).message}`,
			);
		}
	}

	/** Whether the webhook at the service delivers to `url` (one already gone does not). */
	async function deliversTo(
		context: IHookFunctions,
		endpoints: WebhookEndpoints<E>,
		{ webhookId }: StoredRegistration['registration'],
		url: string,
		known: Known,
	): Promise<boolean> {
		try {
			return (await endpoints.get({ webhookId })).url === url;
		} catch (error) {
			if (error instanceof NotFoundError) return false;
			throw failure(context, spec, error, spec.scopes.read, known);
		}
	}

	return {
		async checkExists(context) {
			// n8n calls this first on every activation (and before listening for a test event).
			spec.check?.(context, chosenOptions(context));
			const url = webhookUrl(context);
			const stored = registrationFor(context, url, lifecycleMode(context, url));
			if (!stored) return false;
			const { registration } = stored;

			const { client, secrets, serviceUrl } = await spec.connection.connect(context);
			const endpoints = spec.webhooks(client);
			const known = { secrets: [...secrets, registration.secret], serviceUrl };
			let remote: Awaited<ReturnType<WebhookEndpoints<E>['get']>>;
			try {
				remote = await endpoints.get({ webhookId: registration.webhookId });
			} catch (error) {
				if (!(error instanceof NotFoundError))
					throw failure(context, spec, error, spec.scopes.read, known);
				context.logger.info(
					`Multichannel trigger: webhook ${registration.webhookId} no longer exists at the service; it will be created again`,
				);
				setRegistration(context, stored.url);
				return false;
			}

			// Signing with another secret than the one kept here: a registration overwrote the newer one in static
			// data, and every delivery would be refused (401). `create` registers again in place with a new one.
			if (
				remote.secretFingerprint !== undefined &&
				remote.secretFingerprint !== secretFingerprint(registration.secret)
			) {
				context.logger.warn(
					`Multichannel trigger: webhook ${registration.webhookId} signs with a secret this trigger does not keep; it will be registered again in place with a new one`,
				);
				return false;
			}

			// Changed at the service (another URL, other events or gathering): `create` registers the node's again
			// under the same owner, which replaces it in place. Deleting it first would drop its pending deliveries.
			const wanted = withGathering(spec, spec.subscription(context), chosenOptions(context));
			if (
				(remote.url !== undefined && remote.url !== url) ||
				(Array.isArray(remote.events) && !sameEvents(remote.events, wanted.events)) ||
				(remote.gather !== undefined && !sameGathering(remote.gather, wanted.gather)) ||
				(remote.batch !== undefined && !sameBatching(remote.batch, wanted.batch))
			) {
				context.logger.info(
					`Multichannel trigger: webhook ${registration.webhookId} was changed at the service; it will be registered again in place`,
				);
				return false;
			}

			// The service disables a webhook whose deliveries keep failing (n8n was down, say): turn it back on.
			if (remote.status === 'disabled') {
				try {
					await endpoints.update({ webhookId: registration.webhookId, body: { enabled: true } });
				} catch (error) {
					throw failure(context, spec, error, spec.scopes.write, known);
				}
				context.logger.warn(
					`Multichannel trigger: webhook ${registration.webhookId} had been disabled by the service after failed deliveries; it was enabled again`,
				);
			}
			return true;
		},

		async create(context) {
			const url = webhookUrl(context);
			const mode = lifecycleMode(context, url);
			const { events, filters, gather, batch } = withGathering(
				spec,
				spec.subscription(context),
				chosenOptions(context),
			);
			const { client, secrets, serviceUrl } = await spec.connection.connect(context);
			const endpoints = spec.webhooks(client);
			// What this mode had before (at this URL, or at one n8n no longer gives the node): read before the
			// new registration is kept, and dealt with after it is made, so that a failed registration changes nothing.
			const earlier = storedRegistrations(context).filter((stored) => modeOf(stored) === mode);

			const secret = randomBytes(32).toString('hex');
			const workflow = context.getWorkflow();
			const description =
				`n8n workflow "${workflow.name ?? workflow.id ?? ''}", node "${context.getNode().name}"`.slice(
					0,
					DESCRIPTION_MAX,
				);
			let created: { id: string; secret?: string; signedClaims?: boolean; replaced?: boolean };
			try {
				created = await endpoints.create({
					body: {
						url,
						events,
						secret,
						...(filters ? { filters } : {}),
						...(gather ? { gather } : {}),
						...(batch ? { batch } : {}),
						description,
						owner: ownerOf(context, mode),
						// Only the trigger's own answer counts as delivered, never a bare 2xx from a proxy or a
						// starting n8n (delivery.ts acknowledges each delivery it takes).
						requireAcknowledgement: true,
					},
				});
			} catch (error) {
				const mapped = failure(context, spec, error, spec.scopes.write, {
					secrets: [...secrets, secret],
					serviceUrl,
				});
				// n8n 2.40 activates in the background and may show a failure only in its own log, after
				// retries: this line says at once which workflow's trigger could not register, and why.
				context.logger.error(
					`Multichannel trigger: could not register the webhook of ${description}: ${mapped.message}${
						mapped.description ? ` (${mapped.description})` : ''
					}`,
				);
				throw mapped;
			}
			// A service that picks its own secret says so in its answer; that one is what it signs with.
			const signingSecret =
				typeof created.secret === 'string' && created.secret !== '' ? created.secret : secret;
			const formerUrls = [
				...new Set(
					earlier.flatMap((stored) => [stored.url, ...(stored.registration.formerUrls ?? [])]),
				),
			]
				.filter((former) => former !== url)
				.slice(0, FORMER_URLS_MAX);
			for (const stored of earlier) setRegistration(context, stored.url);
			setRegistration(context, url, {
				webhookId: created.id,
				secret: signingSecret,
				events,
				mode,
				...(formerUrls.length > 0 ? { formerUrls } : {}),
				...(serviceUrl ? { serviceUrl } : {}),
				...(created.signedClaims === true ? { signedClaims: true } : {}),
			});
			context.logger.info(
				`Multichannel trigger: ${created.replaced === true ? 'registered again, in place,' : 'registered'} webhook ${created.id} for ${events.join(', ')}`,
			);
			// Registrations this mode made before under another webhook id: made by versions without owners,
			// or at a service that does not take them. Left behind, each would deliver every event again.
			for (const stored of earlier.filter(
				({ registration }) => registration.webhookId !== created.id,
			)) {
				await removeLeftover(context, endpoints, stored, { secrets, serviceUrl });
			}
			return true;
		},

		async delete(context) {
			const url = webhookUrl(context);
			const stored = registrationFor(context, url, lifecycleMode(context, url));
			if (!stored) return true;
			const { registration } = stored;
			const { client, secrets, serviceUrl } = await spec.connection.connect(context);
			const endpoints = spec.webhooks(client);
			const known = { secrets: [...secrets, registration.secret], serviceUrl };
			// Made at another URL: deleted only when it delivers to this one. A copy of this n8n (same owners)
			// whose activation was refused is deactivated by n8n, and must not delete the original's webhook.
			if (stored.url !== url && !(await deliversTo(context, endpoints, registration, url, known))) {
				context.logger.info(
					`Multichannel trigger: webhook ${registration.webhookId} delivers to another address than this trigger's; left as it is`,
				);
				return true;
			}
			await removeRemote(context, endpoints, registration.webhookId, known);
			setRegistration(context, stored.url);
			context.logger.info(`Multichannel trigger: deleted webhook ${registration.webhookId}`);
			return true;
		},
	};
}
