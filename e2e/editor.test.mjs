// The package in the real n8n editor (headless chromium driven by Playwright, the package installed as a
// community package): what a user sees before anything has run (issue 14, items 7, 10 and 12).
// - n8n serves the package's output schemas, and the editor's own request for one answers 200 and shows its
//   fields in the next node's input panel;
// - node subtitles on the canvas are the names people read ("Group: Create", "Link clicked");
// - the node panel ("What happens next?") describes the Multichannel node by its actions, shows each surface's own
//   icon, lists the Message actions first, finds the node by what a new user types, and lists it in Human review
//   under "Send and wait for response" (issue 25, item 4).
// Needs Debian's chromium (`apt-get install chromium`); skipped without it unless CI is set.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, test } from 'node:test';

import { N8N_VERSION } from '../dev/n8n/runtime.mjs';
import { haveChromium, textsOf, useEditor } from './support/editor.mjs';
import { eventually, log, useStack } from './support/harness.mjs';

const PACKAGE = 'n8n-nodes-multichannel';

const ctx = useStack();

/** A workflow of the package's nodes, never run: a trigger, two actions in a row, and a Short Link Trigger. */
function editorWorkflow(credentials) {
	const node = (name, type, position, parameters, credentialType) => ({
		id: randomUUID(),
		name,
		type,
		typeVersion: 1,
		position,
		parameters,
		...(credentialType ? { credentials: { [credentialType]: credentials[credentialType] } } : {}),
	});
	return {
		name: `Editor check ${randomUUID().slice(0, 8)}`,
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger', [0, 0], {}),
			node(
				'Create group',
				`${PACKAGE}.multichannel`,
				[240, 0],
				{ resource: 'group', operation: 'create', subject: 'Launch team' },
				'multichannelApi',
			),
			node(
				'Welcome',
				`${PACKAGE}.multichannel`,
				[480, 0],
				{ resource: 'message', operation: 'sendText', text: 'Welcome' },
				'multichannelApi',
			),
			{
				...node(
					'On click',
					`${PACKAGE}.multichannelShortLinkTrigger`,
					[0, 240],
					{ events: ['link.clicked'] },
					'multichannelShortLinkApi',
				),
				webhookId: randomUUID(),
			},
		],
		connections: {
			Start: { main: [[{ node: 'Create group', type: 'main', index: 0 }]] },
			'Create group': { main: [[{ node: 'Welcome', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

describe('the package in the n8n editor', () => {
	test('n8n serves the output schema of an operation and of a trigger, and 404 for an unknown one', async () => {
		const base = `${ctx.stack.n8n.url}/schemas/${PACKAGE}`;
		const group = await fetch(`${base}.multichannel/1.0.0/group/create.json`);
		assert.equal(group.status, 200);
		const schema = await group.json();
		assert.equal(schema.type, 'object');
		assert.ok(schema.properties.participantCount, 'the simplified group, as the node outputs it');
		const trigger = await fetch(`${base}.multichannelShortLinkTrigger/1.0.0.json`);
		assert.equal(trigger.status, 200);
		assert.ok((await trigger.json()).properties.data.properties.click);
		assert.equal((await fetch(`${base}.multichannel/1.0.0/group/nothing.json`)).status, 404);
	});

	describe('in the browser', { skip: !haveChromium && 'chromium is not installed' }, () => {
		const editor = useEditor(ctx);
		let page;
		let workflow;
		const shot = (name) => editor.shot(name);

		before(async () => {
			page = editor.page;
			workflow = await ctx.stack.n8n.client.api(
				'POST',
				'/workflows',
				editorWorkflow(ctx.stack.credentials),
			);
		});

		/** Opens the node panel ("What happens next?") on the workflow, its search field focused. */
		async function openNodePanel() {
			await page.waitFor(`document.querySelectorAll('[data-test-id="canvas-node"]').length >= 4`, {
				what: 'the workflow on the canvas',
				timeoutMs: 60_000,
			});
			// The + of the canvas comes a moment after the nodes and opens the node panel once the canvas is ready:
			// pressed as soon as it is there, and again when the panel has not come 1.5 s after a press.
			const opened = await page.evaluate(
				`(async () => {
				const open = () => Boolean(document.querySelector('[data-test-id="node-creator"]'));
				let pressed = 0;
				for (const deadline = Date.now() + 30000; Date.now() < deadline; ) {
					if (open()) return true;
					const plus = document.querySelector('[data-test-id="node-creator-plus-button"]');
					if (plus && Date.now() - pressed > 1500) {
						plus.click();
						pressed = Date.now();
					}
					await new Promise((resolve) => setTimeout(resolve, 50));
				}
				return open();
			})()`,
			);
			assert.ok(opened, 'the node panel opened');
			await page.waitFor(
				`(() => { const input = document.querySelector('[data-test-id="node-creator"] input');
				if (!input) return false; input.focus(); return document.activeElement === input; })()`,
				{ what: 'the node panel search field', timeoutMs: 30_000 },
			);
		}

		test('subtitles on the canvas are the operation and event names people read', async () => {
			await editor.open(`/workflow/${workflow.id}`);
			try {
				await page.waitFor(
					`document.querySelectorAll('[data-test-id="canvas-node"]').length >= 4`,
					{ what: 'the workflow on the canvas', timeoutMs: 60_000 },
				);
				const nodes = (await textsOf(page, '[data-test-id="canvas-node"]')).join('\n');
				log(`canvas: ${JSON.stringify(nodes)}`);
				assert.match(nodes, /Group: Create/);
				assert.match(nodes, /Message: Send Text/);
				assert.match(nodes, /Link clicked/);
				assert.doesNotMatch(nodes, /create: group|sendText: message|link\.clicked/);
			} catch (error) {
				await shot('subtitles');
				throw error;
			}
		});

		test("the editor's request for an action's output schema answers 200, and the next node offers its fields", async () => {
			const welcome = workflow.nodes.find((node) => node.name === 'Welcome');
			// The app may be loaded already: the request looked for must be this visit's.
			await page.evaluate('performance.clearResourceTimings()');
			await editor.open(`/workflow/${workflow.id}/${welcome.id}`);
			const wanted = `/schemas/${PACKAGE}.multichannel/1.0.0/group/create.json`;
			try {
				const requests = await eventually(
					`the editor's request for ${wanted}`,
					() =>
						page
							.evaluate(
								`performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/schemas/')).map((entry) => ({ url: entry.name, status: entry.responseStatus }))`,
							)
							.then((entries) => entries.find((entry) => entry.url.endsWith(wanted)) && entries),
					60_000,
				);
				log(`schema requests: ${JSON.stringify(requests)}`);
				assert.equal(requests.find((entry) => entry.url.endsWith(wanted)).status, 200);
				await page.waitFor(
					`document.body.innerText.includes('Usually outputs the following fields') && document.body.innerText.includes('participantCount')`,
					{ what: "the group's fields in the input panel of the next node", timeoutMs: 30_000 },
				);
			} catch (error) {
				await shot('schema');
				throw error;
			}
		});

		test(
			'the node panel describes the Multichannel node by its actions ("What happens next?")',
			// n8n 1.x lists the nodes found by a search without their descriptions.
			{ skip: N8N_VERSION.startsWith('1.') && 'n8n 1.x shows no descriptions in the node panel' },
			async () => {
				await editor.open(`/workflow/${workflow.id}`);
				try {
					await openNodePanel();
					const heading = await page.evaluate(
						`document.querySelector('[data-test-id="node-creator"]').innerText`,
					);
					assert.match(heading, /What happens next\?/);
					await page.playwright.keyboard.insertText('Multichannel');
					await page.waitFor(
						`document.querySelector('[data-test-id="node-creator"]').innerText.includes('Multichannel Short Link')`,
						{ what: 'the package nodes in the node panel', timeoutMs: 30_000 },
					);
					const items = await textsOf(
						page,
						'[data-test-id="node-creator"] [data-test-id="item-iterator-item"]',
					);
					log(`node panel: ${JSON.stringify(items)}`);
					const multichannel = items.find((text) => text.split('\n')[0].trim() === 'Multichannel');
					assert.ok(multichannel, 'the Multichannel node is listed');
					assert.match(multichannel, /Send messages and manage instances/);
					assert.doesNotMatch(multichannel, /^Starts the workflow/m);
				} catch (error) {
					await shot('node-panel');
					throw error;
				}
			},
		);

		/** Types into the node panel's search field, replacing what was there. */
		async function search(words) {
			await page.playwright.keyboard.press('ControlOrMeta+A');
			await page.playwright.keyboard.press('Backspace');
			await page.playwright.keyboard.insertText(words);
		}

		/** Clicks the node panel's entry whose first line matches `title` (a RegExp), once it is there. */
		async function openEntry(title) {
			const entry = `[...document.querySelectorAll('[data-test-id="node-creator"] [data-test-id="item-iterator-item"]')]
				.find((item) => new RegExp(${JSON.stringify(title.source)}, ${JSON.stringify(title.flags)}).test(item.innerText.split('\\n')[0].trim()))`;
			await page.waitFor(`Boolean(${entry})`, {
				what: `${title} in the node panel`,
				timeoutMs: 30_000,
			});
			await page.evaluate(`${entry}.click()`);
		}

		test(
			'each surface shows its own icon in the node panel (messaging, short links, automation)',
			{ skip: N8N_VERSION.startsWith('1.') && 'n8n 1.x shows no descriptions in the node panel' },
			async () => {
				await editor.open(`/workflow/${workflow.id}`);
				try {
					await openNodePanel();
					await search('Multichannel');
					const icons = await page.waitFor(
						`(() => {
							const icons = {};
							for (const item of document.querySelectorAll('[data-test-id="node-creator"] [data-test-id="item-iterator-item"]')) {
								const src = item.querySelector('img')?.getAttribute('src');
								if (src) icons[item.innerText.split('\\n')[0].trim()] = src.split('/').pop();
							}
							return Object.keys(icons).length >= 3 && icons;
						})()`,
						{ what: "the package's nodes with their icons", timeoutMs: 30_000 },
					);
					log(`node panel icons: ${JSON.stringify(icons)}`);
					assert.equal(icons.Multichannel, 'multichannel.svg');
					assert.equal(icons['Multichannel Short Link'], 'short-link.svg');
					assert.equal(icons['Multichannel Automation'], 'automation.svg');
				} catch (error) {
					await shot('node-panel-icons');
					throw error;
				}
			},
		);

		test('the Multichannel node lists its Message actions first', async () => {
			await editor.open(`/workflow/${workflow.id}`);
			try {
				await openNodePanel();
				await search('Multichannel');
				await openEntry(/^Multichannel$/);
				const text = await page.waitFor(
					`(() => { const text = document.querySelector('[data-test-id="node-creator"]').innerText;
						return /contact actions/i.test(text) && text; })()`,
					{ what: "the Multichannel node's actions", timeoutMs: 30_000 },
				);
				// The labels n8n puts over each resource's actions, in the order shown (its CSS may upper-case them).
				const labels = [...text.matchAll(/^(\w+) actions$/gim)].map((match) =>
					match[1].toLowerCase(),
				);
				log(`action groups: ${JSON.stringify(labels)}`);
				assert.equal(labels[0], 'message');
				assert.ok(labels.indexOf('contact') > 0 && labels.indexOf('instance') > 0);
			} catch (error) {
				await shot('node-actions');
				throw error;
			}
		});

		test('Human review lists the Multichannel node under "Send and wait for response"', async () => {
			await editor.open(`/workflow/${workflow.id}`);
			try {
				await openNodePanel();
				// From the panel's first view: n8n 2.x names the category "Human review", 1.x "Human in the loop".
				await openEntry(/^human (review|in the loop)$/i);
				await page.waitFor(
					`document.querySelector('[data-test-id="node-creator"]').innerText.toLowerCase().includes('send and wait for response')`,
					{ what: 'the "Send and wait for response" list', timeoutMs: 30_000 },
				);
				const items = await textsOf(
					page,
					'[data-test-id="node-creator"] [data-test-id="item-iterator-item"]',
				);
				log(`human review: ${JSON.stringify(items.map((item) => item.split('\n')[0]))}`);
				assert.ok(
					items.some((item) => item.split('\n')[0].trim() === 'Multichannel'),
					'the Multichannel node is listed',
				);
				// Its entry there offers the one action that waits: Send and Wait.
				await openEntry(/^Multichannel$/);
				await page.waitFor(
					`/send message and wait for response/i.test(document.querySelector('[data-test-id="node-creator"]').innerText)`,
					{ what: "the Multichannel node's Send and Wait action", timeoutMs: 30_000 },
				);
			} catch (error) {
				await shot('human-review');
				throw error;
			}
		});

		test(
			'what a new user types in the node panel finds the Multichannel node ("approval", "chat history", "typing"…)',
			{ skip: N8N_VERSION.startsWith('1.') && 'n8n 1.x shows no descriptions in the node panel' },
			async () => {
				await editor.open(`/workflow/${workflow.id}`);
				try {
					await openNodePanel();
					// The node's codex aliases (issue 45, item 7: schedule, label, status… found nothing).
					const words =
						'approval|send message|buttons|chat history|history|typing|poll|schedule|scheduled message|label|status|bulk|broadcast|mention|reject call'.split(
							'|',
						);
					for (const word of words) {
						await search(word);
						await page.waitFor(
							`[...document.querySelectorAll('[data-test-id="node-creator"] [data-test-id="item-iterator-item"]')]
								.some((item) => item.innerText.split('\\n')[0].trim() === 'Multichannel')`,
							{ what: `the Multichannel node found by "${word}"`, timeoutMs: 30_000 },
						);
					}
				} catch (error) {
					await shot('node-panel-search');
					throw error;
				}
			},
		);

		// Last: its dialog stays open over whatever view comes next (editor.open would load the app anew).
		test('a new Multichannel credential says where a key comes from, and still after API Key was left empty', async () => {
			const dialog = '[data-test-id="credential-edit-dialog"]';
			const dialogText = () =>
				page.evaluate(`document.querySelector('${dialog}')?.innerText ?? ''`);
			/** Whether the dialog shows, where a person can read it, the way to a key. */
			const saysWhereKeysComeFrom = async () =>
				/No key yet\? .*\/user\/api.*shown only once/s.test(await dialogText());
			await editor.open('/home/credentials/create');
			await editor.check('credential-new', async () => {
				const picker = '[data-test-id="new-credential-type-select"] input';
				await page.waitFor(`!!document.querySelector('${picker}')`, {
					what: 'the credential type picker',
					timeoutMs: 30_000,
				});
				await page.type(picker, 'Multichannel API');
				await page.playwright
					.locator('[data-test-id="new-credential-type-select-option"]', {
						hasText: /^Multichannel API$/,
					})
					.click({ timeout: 10_000 });
				await page.click('[data-test-id="new-credential-type-button"]');
				await page.waitFor(`document.querySelectorAll('${dialog} input').length >= 2`, {
					what: 'the credential form',
					timeoutMs: 30_000,
				});
				await shot('credential-new');
				log(`credential form: ${JSON.stringify(await dialogText())}`);
				assert.ok(await saysWhereKeysComeFrom(), 'a new credential says where a key comes from');
				assert.match(await dialogText(), /Default Country/);

				// A person without a key clicks into API Key and out again: n8n marks the empty field required.
				const apiKey = page.playwright
					.locator(`${dialog} [data-test-id="parameter-input-apiKey"] input`)
					.first();
				await apiKey.click({ timeout: 10_000 });
				await page.playwright
					.locator(`${dialog} [data-test-id="parameter-input-baseUrl"] input`)
					.first()
					.click({ timeout: 10_000 });
				await page.waitFor(
					`/required/i.test(document.querySelector('${dialog}')?.innerText ?? '')`,
					{
						what: 'API Key marked as required',
					},
				);
				await shot('credential-key-left-empty');
				log(`credential form, key left empty: ${JSON.stringify(await dialogText())}`);
				assert.ok(await saysWhereKeysComeFrom(), 'the way to a key is still shown');
			});
		});
	});
});
