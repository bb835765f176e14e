/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a made-up key the tests look for in outputs */
import { createHash } from 'node:crypto';
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { byId, multichannelNode, NODE_NAME } from './nodes';

/**
 * The campaigns API faked with nock, for Campaign → Create's wire tests (test/nodes/campaign-*wire.test.ts): a
 * campaign as the service answers it, a service recording each request, and the items and node those tests run.
 */

// nock patches Node's http for the whole worker: undone when the test file that imports this ends (quiet.test.ts).
afterAll(() => nock.restore());

export const BASE_URL = 'http://127.0.0.1:8791';
export const API_KEY = 'mcw_test_campaign_wire_5678';
export const credentials = { multichannelApi: { baseUrl: BASE_URL, apiKey: API_KEY } };
export const NOW = '2026-11-29T10:00:00.000Z';

export const campaign = (status: string) => ({
	id: 'cmp_1',
	instanceId: 'inst_1',
	name: 'Sunday offer',
	reference: 'ref',
	status,
	message: { text: 'Hi {{name}}' },
	pacing: { perMinute: 30, jitterSeconds: 5 },
	window: null,
	links: null,
	optOut: { stopWords: ['STOP'], confirmation: 'Bye' },
	counts: {
		recipients: 0,
		queued: 0,
		sent: 0,
		delivered: 0,
		read: 0,
		replied: 0,
		failed: 0,
		skipped: 0,
		skippedBy: {},
	},
	startAt: null,
	nextSendAt: null,
	completedAt: null,
	cancelledAt: null,
	createdAt: NOW,
	updatedAt: NOW,
});

export type Recipient = { to: string; variables?: Record<string, string> };
/** Each recipient's result: accepted, unless `resultOf` says otherwise. */
export const answered = (
	recipients: Recipient[],
	resultOf: (recipient: Recipient) => [string, string | null] = () => ['accepted', null],
) =>
	recipients.map((recipient) => {
		const [result, reason] = resultOf(recipient);
		return { to: recipient.to, result, reason, recipientId: null };
	});

export interface Seen {
	path: string;
	body: IDataObject;
}

/**
 * The service, recording each request: create answers `created` (with each recipient's result when new),
 * `adds` adds answer each recipient's result, start answers the campaign running.
 */
export function service(options: {
	created: boolean;
	adds: number;
	resultOf?: Parameters<typeof answered>[1];
}) {
	const seen: Seen[] = [];
	const record = (path: string, body: nock.Body) => seen.push({ path, body: body as IDataObject });
	nock(BASE_URL)
		.post('/api/v1/instances/inst_1/campaigns')
		.reply((path, body) => {
			record(path, body);
			const recipients = (body as { recipients: Recipient[] }).recipients;
			return [
				options.created ? 201 : 200,
				{
					campaign: campaign('scheduled'),
					created: options.created,
					recipients: options.created ? answered(recipients, options.resultOf) : [],
				},
			];
		})
		.post('/api/v1/campaigns/cmp_1/start')
		.reply((path, body) => {
			record(path, body);
			return [200, campaign('running')];
		});
	if (options.adds > 0) {
		nock(BASE_URL)
			.post('/api/v1/campaigns/cmp_1/recipients')
			.times(options.adds)
			.reply((path, body) => {
				record(path, body);
				const recipients = (body as { recipients: Recipient[] }).recipients;
				return [
					200,
					{ campaign: campaign('scheduled'), recipients: answered(recipients, options.resultOf) },
				];
			});
	}
	return seen;
}

/** `count` people: item n is +1415555nnnn, named Person n, with a number field and a nested one. */
export const people = (count: number): IDataObject[] =>
	Array.from({ length: count }, (_, index) => ({
		phone: `+1415555${String(index).padStart(4, '0')}`,
		name: `Person ${index}`,
		visits: index,
		address: { city: 'Lisbon' },
	}));

export const createNode = (parameters: IDataObject = {}) =>
	multichannelNode('campaign', {
		operation: 'create',
		instanceId: byId('inst_1'),
		name: 'Sunday offer',
		to: '={{ $json.phone }}',
		// A placeholder as a person writes it in an expression: n8n's {{ }} gives the service's {{name}}.
		text: "=Hi {{ '{{' }}name}}, our Sunday offer is on",
		perMinute: 30,
		jitterSeconds: 5,
		...parameters,
	});

/** The reference the node derives: the workflow, the node's name and the campaign name, hashed. */
export const derivedReference = `n8n-${createHash('sha256')
	.update(JSON.stringify(['workflow', 'harness-workflow', NODE_NAME, 'campaign', 'Sunday offer']))
	.digest('hex')}`;

/** Each request's path, and how many recipients it carried. */
export const callsOf = (seen: Seen[]) =>
	seen.map(({ path, body }) => [path, (body.recipients as unknown[] | undefined)?.length]);
/** The calls of 2,500 recipients. */
export const CREATE_ADD_ADD_START = [
	['/api/v1/instances/inst_1/campaigns', 1000],
	['/api/v1/campaigns/cmp_1/recipients', 1000],
	['/api/v1/campaigns/cmp_1/recipients', 500],
	['/api/v1/campaigns/cmp_1/start', undefined],
];
