import { randomBytes } from 'crypto';
import { NodeOperationError, type IHookFunctions } from 'n8n-workflow';

import { NotFoundError, type GatherOptions, type WebhookEndpoints } from '../../../src/client';
import { registrationOf, setRegistration } from './registrations';
import { failure, type Known, type TriggerSpec } from './spec';

/**
 * The webhook at the service, as n8n activates and deactivates the workflow: `checkExists`, then `create` when
 * it answered false; `delete`. One webhook per URL of the node, with the node's events and a fresh secret.
 */
export interface WebhookLifecycle {
	checkExists(context: IHookFunctions): Promise<boolean>;
	create(context: IHookFunctions): Promise<boolean>;
	delete(context: IHookFunctions): Promise<boolean>;
}

const DESCRIPTION_MAX = 500;

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

	return {
		async checkExists(context) {
			const url = webhookUrl(context);
			const registration = registrationOf(context, url);
			if (!registration) return false;

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
				setRegistration(context, url);
				return false;
			}

			// Changed at the service (another URL, other events or gathering): replaced by one that matches the node.
			const wanted = spec.subscription(context);
			if (
				(remote.url !== undefined && remote.url !== url) ||
				(Array.isArray(remote.events) && !sameEvents(remote.events, wanted.events)) ||
				(remote.gather !== undefined && !sameGathering(remote.gather, wanted.gather))
			) {
				context.logger.info(
					`Multichannel trigger: webhook ${registration.webhookId} was changed at the service; it will be replaced`,
				);
				await removeRemote(context, endpoints, registration.webhookId, known);
				setRegistration(context, url);
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
			const { events, filters, gather } = spec.subscription(context);
			const { client, secrets, serviceUrl } = await spec.connection.connect(context);
			const endpoints = spec.webhooks(client);

			// Never two webhooks for one URL: a registration left behind is removed first.
			const previous = registrationOf(context, url);
			if (previous) {
				await removeRemote(context, endpoints, previous.webhookId, {
					secrets: [...secrets, previous.secret],
					serviceUrl,
				});
				setRegistration(context, url);
			}

			const secret = randomBytes(32).toString('hex');
			const workflow = context.getWorkflow();
			const description =
				`n8n workflow "${workflow.name ?? workflow.id ?? ''}", node "${context.getNode().name}"`.slice(
					0,
					DESCRIPTION_MAX,
				);
			let created: { id: string; secret?: string; signedClaims?: boolean };
			try {
				created = await endpoints.create({
					body: {
						url,
						events,
						secret,
						...(filters ? { filters } : {}),
						...(gather ? { gather } : {}),
						description,
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
			setRegistration(context, url, {
				webhookId: created.id,
				secret: signingSecret,
				events,
				...(serviceUrl ? { serviceUrl } : {}),
				...(created.signedClaims === true ? { signedClaims: true } : {}),
			});
			context.logger.info(
				`Multichannel trigger: registered webhook ${created.id} for ${events.join(', ')}`,
			);
			return true;
		},

		async delete(context) {
			const url = webhookUrl(context);
			const registration = registrationOf(context, url);
			if (!registration) return true;
			const { client, secrets, serviceUrl } = await spec.connection.connect(context);
			await removeRemote(context, spec.webhooks(client), registration.webhookId, {
				secrets: [...secrets, registration.secret],
				serviceUrl,
			});
			setRegistration(context, url);
			context.logger.info(`Multichannel trigger: deleted webhook ${registration.webhookId}`);
			return true;
		},
	};
}
