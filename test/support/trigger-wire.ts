/**
 * What the triggers' exact-exchange tests share (test/triggers/*-wire.test.ts): the stand-in for n8n's webhook
 * endpoint, trigger nodes registered at a service that nock answers, deliveries signed as the service signs
 * them, and the requests the service received, recorded as sent. Each file using it gets nock for the file
 * (loopback, where the endpoint listens, still goes through).
 */
import nock from 'nock';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { signPayload } from '../../src/client';
import {
	N8nEndpoint,
	TRIGGER_TYPES,
	TriggerUnderTest,
	type Delivery,
} from '../../dev/harness/triggers';
import { AUTOMATION_KEY, KEY, loopbackOrNock } from './client';
import { raw } from './sandbox';

// nock patches Node's http for the whole worker: undone when the importing test file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

/** The service, as nock answers it. */
export const SERVICE = 'http://service.example.test';

/** Where each surface's webhooks live at the service, and the credential and key of its trigger. */
export const SURFACES = {
	automation: {
		type: TRIGGER_TYPES.automation,
		path: '/api/v1/automation/webhooks',
		credentials: { multichannelAutomationApi: { baseUrl: SERVICE, apiKey: AUTOMATION_KEY } },
		key: AUTOMATION_KEY,
	},
	messaging: {
		type: TRIGGER_TYPES.messaging,
		path: '/api/v1/webhooks',
		credentials: { multichannelApi: { baseUrl: SERVICE, apiKey: KEY } },
		key: KEY,
	},
} as const;
export type Surface = keyof typeof SURFACES;

let eventCount = 0;

/** One request the service received. */
export interface Seen {
	method: string;
	path: string;
	headers: Record<string, unknown>;
	body: unknown;
}

/** A file's wire: the stand-in for n8n's endpoint, and trigger nodes and deliveries through it. */
export interface Wire {
	endpoint: N8nEndpoint;
	/** A trigger node of the surface, with its credential at the nock'ed service. */
	trigger(surface: Surface, parameters?: INodeParameters): TriggerUnderTest;
	/** A trigger activated at the service, which answers with `extra` (default `signedClaims: true`). */
	activated(
		surface: Surface,
		options?: { webhookId?: string; extra?: object; parameters?: INodeParameters },
	): Promise<{ node: TriggerUnderTest; secret: string }>;
	/**
	 * Posts a delivery to the node's production URL (or test URL), signed with `secret` unless a signature is
	 * given, with a delivery id of its own unless `deliveryId` is null; what n8n did with it.
	 */
	deliver(node: TriggerUnderTest, body: string, options?: DeliveryOptions): Promise<Delivery>;
	/** Puts registrations in a node's static data, as an earlier activation (or an older version) left them. */
	store(node: TriggerUnderTest, webhooks: Record<string, object>): void;
}

export interface DeliveryOptions {
	secret?: string;
	signature?: string;
	deliveryId?: string | null;
	headers?: Record<string, string>;
	test?: boolean;
}

/** Registers the file's nock set-up and its endpoint; the endpoint is there once `beforeAll` ran. */
export function useWire(): Wire {
	loopbackOrNock();
	const wire: Wire = {
		endpoint: undefined as unknown as N8nEndpoint,
		trigger(surface, parameters = {}) {
			const { type, credentials } = SURFACES[surface];
			return new TriggerUnderTest(wire.endpoint, { type, parameters, credentials });
		},
		async activated(surface, options = {}) {
			const webhookId = options.webhookId ?? `wh_${surface}`;
			const sent = registrations(surface, webhookId, options.extra ?? { signedClaims: true });
			const node = wire.trigger(surface, options.parameters);
			await node.activate();
			return { node, secret: String((sent[0].body as { secret: string }).secret) };
		},
		async deliver(node, body, options = {}) {
			const headers: Record<string, string> = {
				'content-type': 'application/json',
				...options.headers,
			};
			const signature =
				options.signature ?? (options.secret ? signPayload(options.secret, body) : '');
			if (signature) headers['x-multichannel-signature'] = signature;
			if (options.deliveryId !== null) {
				headers['x-multichannel-delivery-id'] = options.deliveryId ?? `dlr_wire_${++eventCount}`;
			}
			const before = wire.endpoint.of(node).length;
			const path = new URL(node.webhookUrl(options.test)).pathname;
			await raw(wire.endpoint.url, 'POST', path, { body, headers });
			return wire.endpoint.of(node)[before];
		},
		store(node, webhooks) {
			node.staticData = { [`node:${node.node.name}`]: { webhooks } as IDataObject };
		},
	};
	beforeAll(async () => {
		wire.endpoint = await new N8nEndpoint().start();
	});
	afterEach(() => nock.cleanAll());
	afterAll(async () => await wire.endpoint?.close());
	return wire;
}

/** Answers `times` requests with `answer(body)` (status, body), recording each as received. */
export function answer(
	interceptor: nock.Interceptor,
	reply: (body: Record<string, unknown>) => [number, unknown?, Record<string, string>?],
	times = 1,
): Seen[] {
	const seen: Seen[] = [];
	interceptor.times(times).reply(function (uri, body) {
		const parsed = (typeof body === 'string' && body !== '' ? JSON.parse(body) : body) as Record<
			string,
			unknown
		>;
		seen.push({ method: this.req.method, path: uri, headers: this.req.headers, body: parsed });
		const [status, response, headers] = reply(parsed ?? {});
		return [
			status,
			response === undefined ? '' : JSON.stringify(response),
			{ 'Content-Type': 'application/json', ...headers },
		];
	});
	return seen;
}

/**
 * The service's registration endpoint: answers each registration with the webhook id given, the body's URL,
 * events and secret, and `extra` (`signedClaims`, `replaced`). Resolves the bodies as sent.
 */
export function registrations(
	surface: Surface,
	webhookId: string,
	extra: object = {},
	times = 1,
): Seen[] {
	return answer(
		nock(SERVICE).post(SURFACES[surface].path),
		(body) => [
			201,
			{ id: webhookId, url: body.url, events: body.events, secret: body.secret, ...extra },
		],
		times,
	);
}

/** An event envelope as the service delivers it, as the exact text that is signed. */
export function eventBody(
	type: string,
	data: object = {},
	id = `evt_wire_${++eventCount}`,
): string {
	return JSON.stringify({ id, type, createdAt: new Date().toISOString(), data });
}
