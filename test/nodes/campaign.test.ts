/**
 * A campaign through the Multichannel node (issue 45, item 1), run as real workflows against the sandbox on
 * loopback, counting the messages the sandbox received: every item is checked before any is sent, so one bad
 * item stops the run with nothing sent; with "continue on fail" the good ones still go.
 */
import type { IDataObject } from 'n8n-workflow';

import { byId, NODE_NAME, useResource } from '../support/nodes';

const suite = useResource('message', { instance: 'Campaign' });
const CAMPAIGN = 200;
const BAD = 49;

/** 200 people, item 49's number cut short, as the person typed it. */
function people(tag: string, badNumber = '+1 415 555 01'): IDataObject[] {
	return Array.from({ length: CAMPAIGN }, (_, index) => ({
		phone: index === BAD ? badNumber : `+1415557${String(index).padStart(4, '0')}`,
		text: `${tag}: our Sunday offer, for you (${index})`,
	}));
}

const sendText = { operation: 'sendText', to: '={{ $json.phone }}', text: '={{ $json.text }}' };
const postStatus = {
	resource: 'status',
	operation: 'post',
	type: 'text',
	text: '={{ $json.text }}',
};

/** The outbound messages whose text starts with the tag. */
const sent = (tag: string) =>
	suite.service.sandbox.store.all(
		'messages',
		(message) =>
			message.direction === 'outbound' &&
			((message.content as { text?: string }).text ?? '').startsWith(`${tag}:`),
	);

describe('a campaign with a bad item', () => {
	test('a bad number in item 49 of 200 stops the run before anything is sent, naming the field and the item', async () => {
		const result = await suite.run(sendText, people('checked'));

		expect(result.error?.message).toMatch(/^Invalid value for "To" \[item 49\]: "\+1 415 555 01"/);
		expect(sent('checked')).toHaveLength(0);
	});

	test('a check the client makes (a text too long) stops the run before anything is sent', async () => {
		const items = people('long', '+14155579999');
		items[120].text = `long: ${'x'.repeat(5000)}`;

		const result = await suite.run(sendText, items);

		expect(result.error?.message).toMatch(/\[item 120\]/);
		expect(sent('long')).toHaveLength(0);
	});

	test('Status → Post: a bad item stops the run before any status is posted', async () => {
		const posted = () => suite.service.sandbox.store.all('statuses').length;
		const before = posted();

		const result = await suite.run(postStatus, [
			{ text: 'Open Sunday' },
			{ text: 'x'.repeat(701) },
			{ text: 'Open Monday' },
		]);

		expect(result.error?.message).toMatch(/\[item 1\]/);
		expect(posted()).toBe(before);
	});

	test('a refusal by the service at item 49 says that items 0–48 went through', async () => {
		const items = people('refused', '+14155579998').map((item, index) => ({
			...item,
			instance: index === BAD ? 'inst_gone' : suite.instance.id,
		}));

		const result = await suite.run(
			{ ...sendText, instanceId: byId('={{ $json.instance }}'), options: { concurrency: 1 } },
			items,
		);

		expect(result.error?.message).toMatch(/^The instance was not found \[item 49\]/);
		expect(result.error?.message).toMatch(
			/\. 49 items before it went through \(items 0–48\); fix this one and run the workflow again: the items that went through are not sent again$/,
		);
		expect(sent('refused')).toHaveLength(BAD);
	});

	test('with continue on fail, item 49 becomes its error item and the 199 others are sent', async () => {
		const result = await suite.run(sendText, people('lenient'), {
			onError: 'continueRegularOutput',
		});

		const output = result.output(NODE_NAME);
		expect(output).toHaveLength(CAMPAIGN);
		expect(output[BAD].json.error).toMatch(/^Invalid value for "To" \[item 49\]/);
		expect(output.filter((item) => item.json.status === 'sent')).toHaveLength(CAMPAIGN - 1);
		expect(sent('lenient')).toHaveLength(CAMPAIGN - 1);
	});
});
