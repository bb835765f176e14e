import { clientsFor, raw, suiteSandbox } from '../support/sandbox';

/**
 * Dates are validated with everything else, before anything changes: an impossible time-zone offset
 * (`+99:99`, `+24:00`) or a time without seconds (RFC 3339 has them, as the document's `date-time` says) is a
 * 400 naming the field, never a 500 or half an update.
 */

const IMPOSSIBLE = [
	'2030-01-01T00:00:00+99:99',
	'2030-01-01T00:00:00+24:00',
	'2030-01-01T00:00-13:60',
	'2030-01-01T00:00Z',
];

describe('date-time input', () => {
	const suite = suiteSandbox();

	const fieldsOf = (body: unknown) =>
		(body as { error: { details: Array<{ field: string }> } }).error.details.map(
			(detail) => detail.field,
		);

	it('refuses a link expiry with an impossible offset, on create and update, changing nothing', async () => {
		const { sandbox, keys } = suite;
		for (const expiresAt of IMPOSSIBLE) {
			const created = await raw(sandbox.baseUrl, 'POST', '/api/v1/links', {
				key: keys.shortLink,
				body: { url: 'https://example.com/new', expiresAt },
			});
			expect([expiresAt, created.status]).toEqual([expiresAt, 400]);
			expect(fieldsOf(created.body)).toEqual(['body.expiresAt']);
		}
		expect(sandbox.store.all('links')).toHaveLength(0);

		const link = await clientsFor(sandbox.baseUrl, keys).shortLink.links.create({
			body: { url: 'https://example.com/before', expiresAt: '2030-01-01T00:00:00+14:00' },
		});
		expect(link.expiresAt).toBe('2029-12-31T10:00:00.000Z');
		const updates = () => sandbox.events.filter((event) => event.type === 'link.updated').length;
		const before = { record: { ...sandbox.store.get('links', link.id) }, updates: updates() };

		const patched = await raw(sandbox.baseUrl, 'PATCH', `/api/v1/links/${link.id}`, {
			key: keys.shortLink,
			body: { url: 'https://example.com/after', expiresAt: IMPOSSIBLE[0] },
		});
		expect(patched.status).toBe(400);
		expect(fieldsOf(patched.body)).toEqual(['body.expiresAt']);
		expect(sandbox.store.get('links', link.id)).toEqual(before.record);
		expect(updates()).toBe(before.updates);
	});

	it('refuses a click filter and an automation event time with an impossible offset', async () => {
		const { sandbox, keys } = suite;
		const link = await clientsFor(sandbox.baseUrl, keys).shortLink.links.create({
			body: { url: 'https://example.com/clicks' },
		});
		const clicks = await raw(
			sandbox.baseUrl,
			'GET',
			`/api/v1/links/${link.id}/clicks?since=${encodeURIComponent(IMPOSSIBLE[0])}`,
			{ key: keys.shortLink },
		);
		expect(clicks.status).toBe(400);
		expect(fieldsOf(clicks.body)).toEqual(['query.since']);

		const published = await raw(sandbox.baseUrl, 'POST', '/api/v1/automation/events', {
			key: keys.automation,
			body: { name: 'order.paid', payload: {}, occurredAt: IMPOSSIBLE[0] },
		});
		expect(published.status).toBe(400);
		expect(fieldsOf(published.body)).toEqual(['body.occurredAt']);
		expect(sandbox.store.all('automationEvents')).toHaveLength(0);
	});

	it('is refused by the client before anything is sent', async () => {
		const { sandbox, keys } = suite;
		const client = clientsFor(sandbox.baseUrl, keys).shortLink;
		await expect(
			client.links.create({ body: { url: 'https://example.com/x', expiresAt: IMPOSSIBLE[1] } }),
		).rejects.toThrow(/expiresAt/);
	});
});
