/**
 * Mentions, voice notes and stickers at the Multichannel Trigger, against the sandbox (issue 36): Only Messages
 * That Mention Me starts the workflow for a group message that mentions the instance's number or everyone, and
 * for nothing else; a received voice note and a sticker arrive with their own kind, pass the Message Kinds
 * filter for that kind, and with Download Media carry their file as binary data, the bytes the contact sent.
 */
import { createHash } from 'node:crypto';

import type { TriggerUnderTest } from '../../dev/harness/triggers';
import { sampleFile } from '../../sandbox/files/samples';
import { useMessagingTrigger } from '../support/triggers';

const OWN = '+14155550320';
const MEMBER = '+14155550321';
const OTHER = '+14155550322';
const suite = useMessagingTrigger('Mentions', OWN);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function inbound(path: string, body: Record<string, unknown>): Promise<string> {
	const answer = await suite.sandboxCall(`/sandbox/instances/${suite.instanceId}/${path}`, body);
	expect(answer.status).toBe(201);
	return (answer.body as { id: string }).id;
}

const startedFor = (node: TriggerUnderTest, count: number) => suite.startedFor(node, count);

it('Only Messages That Mention Me: a mention of my number or of everyone starts it, nothing else does', async () => {
	const group = await suite.client.groups.create({
		instanceId: suite.instanceId,
		body: { subject: 'Support', participants: [MEMBER, OTHER] },
	});
	const node = await suite.activated({ onlyMentioningMe: true }, 'Mentions me');
	const all = await suite.activated({}, 'Every message');

	const inGroup = { from: MEMBER, groupId: group.id };
	const me = await inbound('inbound', {
		...inGroup,
		text: '@14155550320 can you help?',
		mentions: [OWN],
	});
	const other = await inbound('inbound', { ...inGroup, text: '@14155550322 ?', mentions: [OTHER] });
	const everyone = await inbound('inbound', {
		...inGroup,
		text: 'Everyone, look',
		mentionEveryone: true,
	});
	const plain = await inbound('inbound', { ...inGroup, text: 'no mention' });

	expect(await startedFor(node, 4)).toEqual([me, everyone].sort());
	expect(await startedFor(all, 4)).toEqual([me, other, everyone, plain].sort());
	const item = suite.endpoint.executions(node)[0].items?.[0].json;
	expect(item).toMatchObject({ data: { mentions: [OWN], mentionsMe: true } });
	const reasons = suite.endpoint
		.of(node)
		.filter((delivery) => !delivery.items)
		.map((delivery) => (JSON.parse(delivery.responseBody) as { reason: string }).reason);
	expect(reasons).toContain('a message that does not mention me');
});

it('a voice note and a sticker: their own kind, the kinds filter, and Download Media', async () => {
	const stickers = await suite.activated({ messageKinds: ['sticker'] }, 'Stickers');
	const files = await suite.activated({ downloadMedia: true, messageKinds: [] }, 'Files');

	const voice = await inbound('inbound/media', { from: MEMBER, sample: 'voice' });
	const sticker = await inbound('inbound/media', { from: MEMBER, sample: 'sticker' });

	expect(await startedFor(stickers, 2)).toEqual([sticker]);
	expect(await startedFor(files, 2)).toEqual([voice, sticker].sort());
	for (const [id, sample, type] of [
		[voice, 'voice', 'voice'],
		[sticker, 'sticker', 'sticker'],
	] as const) {
		const delivery = suite.endpoint
			.executions(files)
			.find((candidate) => (candidate.items?.[0].json.data as { id: string }).id === id);
		const item = delivery?.items?.[0];
		expect(item?.json).toMatchObject({ data: { type } });
		const binary = item?.binary?.data;
		expect(binary).toMatchObject({ fileName: sampleFile(sample).fileName });
		expect(sha256(Buffer.from(binary?.data ?? '', 'base64'))).toBe(sha256(sampleFile(sample).data));
	}
});
