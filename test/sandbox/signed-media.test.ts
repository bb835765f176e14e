/**
 * Files of received messages without the API key: each delivery of an event about a message with a file carries
 * `media.downloadUrl`, a URL the sandbox signed for that file, which answers its bytes with no Bearer key until
 * `downloadUrlExpiresAt`. Forged, altered, moved to another message and expired URLs are refused; each attempt
 * carries a fresh one, so a redelivery after the first URL expired still works. A download checks its URL once.
 */
import { createHash } from 'node:crypto';
import { request } from 'undici';

import { sampleFile } from '../../sandbox/files/samples';
import { SIGNED_MEDIA_TTL_MS } from '../../sandbox/files/signed-media';
import {
	connectedInstance,
	raw,
	receiveAllWorkspaceEvents,
	sandboxWithReceiver,
} from '../support/sandbox';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** The sandbox's clock, moved by the tests. */
let offsetMs = 0;
const suite = sandboxWithReceiver({ now: () => Date.now() + offsetMs });
let instanceId: string;

beforeAll(async () => {
	await receiveAllWorkspaceEvents(suite);
	instanceId = (await connectedInstance(suite.sandbox, 'Signed files', '+14155550230')).id;
});
afterEach(() => {
	offsetMs = 0;
	suite.receiver.respond = () => 200;
});

/** A contact sends a sample file: its message id and the delivered event's media. */
async function receivedFile(sample: 'pdf' | 'image') {
	const sent = await raw(
		suite.sandbox.baseUrl,
		'POST',
		`/sandbox/instances/${instanceId}/inbound/media`,
		{ key: suite.keys.workspace, body: { from: '+14155550231', sample } },
	);
	expect(sent.status).toBe(201);
	const messageId = (sent.body as { id: string }).id;
	const delivery = await suite.receiver.waitForEvent(
		'message.received',
		(received) => received.event.data.id === messageId,
	);
	const { signature } = delivery;
	if (!signature.valid) throw new Error(`the delivery's signature: ${signature.reason}`);
	const media = delivery.event.data.media as Record<string, string>;
	return { messageId, media, signedAt: signature.timestamp };
}

/** A GET without any key, as a receiver holding only the URL makes it. */
async function fetchWithoutKey(url: string) {
	const response = await request(url);
	const data = Buffer.from(await response.body.arrayBuffer());
	const text = data.toString('utf8');
	return {
		status: response.statusCode,
		contentType: response.headers['content-type'],
		data,
		error: text.startsWith('{')
			? (JSON.parse(text) as { error: { code: string } }).error
			: undefined,
	};
}

it('a delivered file carries a signed URL that answers its bytes without a key, for 15 minutes', async () => {
	const { media, signedAt } = await receivedFile('pdf');
	const expected = sampleFile('pdf');

	expect(media.downloadUrl).toMatch(
		new RegExp(`^${suite.sandbox.baseUrl}/api/v1/signed-media/msg_\\w+\\.\\d+\\.[0-9a-f]{64}$`),
	);
	// 15 minutes from its delivery (made with it, as its signature, to the second). Measured from the test's start
	// instead, a request and a delivery 2 s slow (a loaded machine) went past the bound.
	const expiresAt = Date.parse(media.downloadUrlExpiresAt);
	expect(expiresAt - signedAt * 1000).toBeGreaterThanOrEqual(SIGNED_MEDIA_TTL_MS - 1_000);
	expect(expiresAt - signedAt * 1000).toBeLessThanOrEqual(SIGNED_MEDIA_TTL_MS);

	const file = await fetchWithoutKey(media.downloadUrl);
	expect(file.status).toBe(200);
	expect(file.contentType).toBe('application/pdf');
	expect(sha256(file.data)).toBe(media.sha256);
	expect(sha256(file.data)).toBe(sha256(expected.data));
	// As often as asked while it is valid (a retried download, the user's own HTTP Request node).
	expect((await fetchWithoutKey(media.downloadUrl)).status).toBe(200);
});

it('a download checks its URL once: where it is authenticated, not again in the handler', async () => {
	const { media } = await receivedFile('image');
	const check = jest.spyOn(suite.sandbox.core.signedMedia, 'check');
	try {
		expect((await fetchWithoutKey(media.downloadUrl)).status).toBe(200);
		expect(check).toHaveBeenCalledTimes(1);
	} finally {
		check.mockRestore();
	}
});

it('a forged, altered or moved URL is refused with 401, and so is one past its time', async () => {
	const first = await receivedFile('pdf');
	const second = await receivedFile('image');
	const [, token] = first.media.downloadUrl.split('/signed-media/');
	const [messageId, expires, signature] = token.split('.');
	const base = `${suite.sandbox.baseUrl}/api/v1/signed-media/`;
	const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;

	for (const forged of [
		`${messageId}.${expires}.${flipped}`,
		`${messageId}.${Number(expires) + 3600}.${signature}`, // a later expiry, same signature
		`${second.messageId}.${expires}.${signature}`, // another message's file with this signature
		`${messageId}.${expires}`,
		'anything',
	]) {
		const answer = await fetchWithoutKey(`${base}${encodeURIComponent(forged)}`);
		expect({ forged, status: answer.status, code: answer.error?.code }).toEqual({
			forged,
			status: 401,
			code: 'invalid_signature',
		});
	}

	offsetMs = SIGNED_MEDIA_TTL_MS + 1_000;
	const late = await fetchWithoutKey(first.media.downloadUrl);
	expect({ status: late.status, code: late.error?.code }).toEqual({
		status: 401,
		code: 'url_expired',
	});
	// The key still downloads it.
	const keyed = await raw(
		suite.sandbox.baseUrl,
		'GET',
		`/api/v1/messages/${first.messageId}/media`,
		{
			key: suite.keys.workspace,
		},
	);
	expect(keyed.status).toBe(200);
});

it('each delivery attempt carries a fresh URL: a redelivery after the first one expired still downloads', async () => {
	// The first attempt fails; before the retry, the sandbox's clock passes the first URL's expiry.
	const from = '+14155550232';
	suite.receiver.respond = (delivery) => {
		if (delivery.event.data.from !== from || delivery.attempt !== 1) return 200;
		offsetMs = SIGNED_MEDIA_TTL_MS + 60_000;
		return 500;
	};
	const sent = await raw(
		suite.sandbox.baseUrl,
		'POST',
		`/sandbox/instances/${instanceId}/inbound/media`,
		{ key: suite.keys.workspace, body: { from, sample: 'pdf' } },
	);
	const messageId = (sent.body as { id: string }).id;
	const attempts = () =>
		suite.receiver
			.of('message.received')
			.filter((received) => received.event.data.id === messageId);
	await suite.receiver.waitForEvent(
		'message.received',
		(received) => received.event.data.id === messageId && received.attempt === 2,
	);
	const [first, second] = attempts().map(
		(received) => received.event.data.media as Record<string, string>,
	);
	expect(second.downloadUrl).not.toBe(first.downloadUrl);
	expect((await fetchWithoutKey(first.downloadUrl)).error?.code).toBe('url_expired');
	const file = await fetchWithoutKey(second.downloadUrl);
	expect(file.status).toBe(200);
	expect(sha256(file.data)).toBe(second.sha256);
});

it('a message without a file carries no URL, and the events the sandbox keeps have none either', async () => {
	const sent = await raw(
		suite.sandbox.baseUrl,
		'POST',
		`/sandbox/instances/${instanceId}/inbound`,
		{
			key: suite.keys.workspace,
			body: { from: '+14155550233', text: 'no file here' },
		},
	);
	const messageId = (sent.body as { id: string }).id;
	const delivery = await suite.receiver.waitForEvent(
		'message.received',
		(received) => received.event.data.id === messageId,
	);
	expect(delivery.raw).not.toContain('downloadUrl');
	// Stamped on each attempt only: the stored event (redelivered, listed) has no URL that would go stale.
	expect(JSON.stringify(suite.sandbox.core.emitted)).not.toContain('downloadUrl');
});
