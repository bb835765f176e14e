// The README's first journey, "Try it as a contact" (issue 45), followed literally on the stack `npm start` makes:
// the auto-reply example published (through n8n's API: the editor has tests of its own), then the console as a
// person uses it, in headless chromium: sign in with the workspace key, in Phone pick the instance and the chat the
// README names, type its number, open the chat, write its text and send; the example's reply shows in the chat,
// quoting the message, then turns to read. What is picked and typed is read from the README's paragraph, so that
// the README and this test cannot say different things.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { eventually, log, useStack } from './support/harness.mjs';

// The browser code is TypeScript, loaded through ts-node as e2e/support/editor.mjs does.
const require = createRequire(import.meta.url);
require('ts-node').register({ transpileOnly: true });
const { Browser, chromiumAvailable } = require('../dev/browser/chromium.ts');

const haveChromium = chromiumAvailable();
if (!haveChromium && process.env.CI)
	throw new Error('chromium is missing: apt-get install chromium');

/** The steps of the README's "Try it as a contact", as its words give them. */
function readmeJourney() {
	const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
	const paragraph = /\*\*Try it as a contact\.\*\*([\s\S]*?)\n\n/.exec(readme)?.[1];
	assert.ok(paragraph, 'README.md has its paragraph "Try it as a contact"');
	const words = paragraph.replace(/\s+/g, ' ');
	const step = (what, pattern) => {
		const found = pattern.exec(words);
		assert.ok(found, `README.md's "Try it as a contact" names ${what} (${pattern})`);
		return found[1];
	};
	return {
		example: step('the example to publish', /Open the example workflow "([^"]+)" and publish it/),
		instance: step('the instance to pick', /in \*\*Phone\*\* pick "([^"]+)"/),
		chat: step('the chat', /(?:then the chat|leave) "([^"]+)"/),
		number: step('the number that writes', /`(\+[\d ]+)`/),
		text: step('what to write', /Write "([^"]+)" and send/),
	};
}

/** The bubbles of the chat shown, as a person reads them. */
const BUBBLES = `[...document.querySelectorAll('#chat-messages li.bubble')].map((bubble) => ({
	id: bubble.dataset.messageId,
	direction: bubble.dataset.direction,
	status: bubble.dataset.status,
	quote: bubble.querySelector('.quote')?.textContent ?? null,
	quotedId: bubble.querySelector('.quote')?.dataset.quotedId ?? null,
	text: bubble.querySelector('.text')?.textContent ?? '',
}))`;

/** "Open the Console, sign in with the workspace key printed", then in Phone the instance, the chat and the number. */
async function openTheChat(page, { baseUrl, key }, journey) {
	const ui = page.playwright;
	await page.goto(`${baseUrl}/user/api`);
	await page.waitFor(`document.body.getAttribute('data-ready') === 'true'`, {
		timeoutMs: 15_000,
		what: 'the console to load',
	});
	const signIn = ui.locator('#signin');
	await signIn.getByLabel('API key').fill(key);
	await signIn.getByRole('button', { name: 'Sign in' }).click();

	const phone = ui.locator('#chat');
	const instances = phone.getByLabel('Instance');
	// Offered with its state: "Demo phone (connected)".
	const instance = await eventually(`"${journey.instance}" among the instances`, async () =>
		(await instances.locator('option').allTextContents()).find(
			(label) => label === journey.instance || label.startsWith(`${journey.instance} (`),
		),
	);
	await instances.selectOption({ label: instance });
	await phone.getByLabel('Chat', { exact: true }).selectOption({ label: journey.chat });
	await phone.locator('#chat-from').fill(journey.number);
	await phone.getByRole('button', { name: 'Open the chat' }).click();
	await page.waitFor(
		`!document.getElementById('chat-phone').hidden && document.getElementById('chat-messages').dataset.filled === 'true'`,
		{ what: 'the chat to open' },
	);
}

/**
 * "Write <text> and send": once a reply quoting it shows and reads as read, the new bubbles (the message written and
 * every reply quoting it).
 */
async function writeAndWait(page, journey) {
	const phone = page.playwright.locator('#chat');
	const earlier = (await page.evaluate(BUBBLES)).map((bubble) => bubble.id);
	await phone.locator('#chat-text').fill(journey.text);
	await phone.getByRole('button', { name: 'Send', exact: true }).click();
	return await page.waitFor(
		`(() => {
			const earlier = ${JSON.stringify(earlier)};
			const bubbles = ${BUBBLES}.filter((bubble) => !earlier.includes(bubble.id));
			const mine = bubbles.find((bubble) => bubble.direction === 'inbound' && bubble.text === ${JSON.stringify(journey.text)});
			const replies = bubbles.filter((bubble) => bubble.direction === 'outbound' && bubble.quotedId === mine?.id);
			return replies.some((reply) => reply.status === 'read') && { mine, replies };
		})()`,
		{ timeoutMs: 30_000, what: 'a reply quoting the message, read, in the chat' },
	);
}

describe('the README’s first journey', { skip: !haveChromium && 'no chromium' }, () => {
	const ctx = useStack();
	const journey = readmeJourney();
	let browser;
	let page;
	before(async () => {
		browser = await Browser.launch({ window: { width: 1280, height: 900 } });
		page = await browser.newPage();
		await page.setViewport(1280, 900);
	});
	after(async () => {
		await browser?.close();
	});

	/** Saves what the console shows, to look at (E2E_SHOTS=folder; at a failure, in the temporary folder). */
	async function shot(name) {
		const file = join(process.env.E2E_SHOTS ?? tmpdir(), `readme-journey-${name}.png`);
		await page?.playwright
			.locator('#chat')
			.scrollIntoViewIfNeeded({ timeout: 5_000 })
			.then(() => page.screenshot(file))
			.then(
				() => log(`the console: ${file}`),
				() => undefined,
			);
	}

	test('try it as a contact: the example published, a text written in the phone gets its reply', async () => {
		// "Open the example workflow … and publish it" (this file's copy of it, on the shared stack).
		const started = Date.now();
		const since = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
		const workflowId = ctx.example('auto-reply.json');
		const { name } = await ctx.api('GET', `/workflows/${workflowId}`);
		assert.ok(name.startsWith(journey.example), `${name} is the README's example`);
		await ctx.activate(workflowId);
		log(`published: ${since()}`);
		try {
			const { baseUrl, keys } = ctx.stack.sandbox;
			await openTheChat(page, { baseUrl, key: keys.workspace }, journey);
			log(`the chat open: ${since()}`);
			// "its reply, quoting your message, shows in the chat …, then turns to read".
			const { replies } = await writeAndWait(page, journey);
			log(`the reply shown, read: ${since()}`);
			assert.equal(replies.length, 1, 'one reply');
			assert.equal(replies[0].quote, journey.text, 'the reply quotes the message');
			assert.equal(
				replies[0].text,
				`Thanks for your message! We got: "${journey.text}" and will answer shortly.`,
			);
			if (process.env.E2E_SHOTS) await shot('answered');
		} catch (error) {
			await shot('failed');
			throw error;
		}
	});
});
