/* eslint-disable @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n */
import { chromiumAvailable } from '../../dev/browser/chromium';
import { sendDueCampaigns } from '../../sandbox/campaigns/sender';
import type { Sandbox } from '../../sandbox/server';
import { openChat } from '../support/console-chat';
import {
	clientsFor,
	connectedInstance,
	consoleInBrowser,
	signInToConsole,
} from '../support/sandbox';

/**
 * The console's campaign view in headless chromium: a running campaign with its progress, paused, resumed and
 * cancelled by its buttons; and the phone answering the campaign with STOP, which opts the contact out and shows
 * the confirmation in the chat.
 */

type Keys = NonNullable<Sandbox['keys']>;

(chromiumAvailable() || process.env.CI ? describe : describe.skip)('console: campaigns', () => {
	const session = consoleInBrowser();
	const contact = '+14155550171';

	it('shows progress, pauses, resumes and cancels; the phone answers STOP and sees the confirmation', async () => {
		const { sandbox, page } = session;
		const client = clientsFor(sandbox.baseUrl, sandbox.keys as Keys).workspace;
		const { id: instanceId } = await connectedInstance(
			sandbox,
			'Console campaigns',
			'+14155550170',
		);
		const { campaign } = await client.campaigns.create({
			instanceId,
			body: {
				name: 'Spring sale',
				message: { text: 'Hi {{name}}, the spring sale starts today' },
				pacing: { perMinute: 1 },
				optOut: { confirmation: 'Done: you will get no more offers.' },
				recipients: [contact, '+14155550172', '+14155550173'].map((to) => ({
					to,
					variables: { name: 'Sam' },
				})),
			},
		});
		await client.campaigns.start({ campaignId: campaign.id, body: {} });
		sendDueCampaigns(sandbox.core);
		await signInToConsole(page, sandbox.baseUrl, (sandbox.keys as Keys).workspace);
		const row = `#campaigns-body [data-campaign-id="${campaign.id}"]`;
		const statusShown = (status: string) =>
			page.waitFor(`!!document.querySelector('${row} [data-campaign-status="${status}"]')`, {
				what: `the campaign ${status}`,
			});
		await statusShown('running');
		expect(await page.evaluate(`document.querySelector('${row} progress').value`)).toBe(1);
		expect(await page.text(row)).toMatch(/1 of 3 done: queued 2 · (sent|delivered|read) 1/);
		// A minute to the next send: shown, so that the campaign does not look stuck.
		const { nextSendAt } = await client.campaigns.get({ campaignId: campaign.id });
		expect(await page.text(row)).toContain(
			`next send ${(nextSendAt as string).slice(0, 16).replace('T', ' ')} UTC`,
		);

		await page.click(`${row} [data-campaign-action="pause"]`);
		await statusShown('paused');
		expect((await client.campaigns.get({ campaignId: campaign.id })).status).toBe('paused');
		await page.click(`${row} [data-campaign-action="resume"]`);
		await statusShown('running');

		await openChat(page, instanceId, contact);
		await page.type('#chat-text', 'STOP');
		await page.click('#chat-send');
		await page.waitFor(
			`document.getElementById('chat-messages').textContent.includes('Done: you will get no more offers.')`,
			{ what: 'the confirmation in the chat' },
		);
		expect(await client.optOuts.get({ phone: contact })).toMatchObject({
			optedOut: true,
			source: 'stop_word',
		});

		await page.click(`${row} [data-campaign-action="cancel"]`);
		await statusShown('cancelled');
		expect(await page.evaluate(`document.querySelectorAll('${row} button').length`)).toBe(0);
	});
});
