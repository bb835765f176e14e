/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n, and run copied cURL commands in a shell */
/**
 * The console's cURL builder in headless chromium, beyond console.test.ts: query parameters and a JSON body typed
 * on the page go into the command, quoted so that a shell passes them on as typed.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { chromiumAvailable } from '../../dev/browser/chromium';
import {
	clientsFor,
	connectedInstance,
	consoleInBrowser,
	signInToConsole,
	type SandboxKeys,
} from '../support/sandbox';

const run = promisify(execFile);

(chromiumAvailable() || process.env.CI ? describe : describe.skip)('console: cURL builder', () => {
	const session = consoleInBrowser();

	/** Signs in, pastes the workspace key into the reference (shown) and opens one endpoint. */
	async function opened(operationId: string): Promise<string> {
		const { sandbox, page } = session;
		const key = (sandbox.keys as SandboxKeys).workspace;
		await signInToConsole(page, sandbox.baseUrl, key);
		await page.type('#ref-key', key);
		await page.click('#ref-key-show');
		const selector = `[data-operation-id="${operationId}"]`;
		await page.evaluate(`document.querySelector('${selector}').open = true`);
		return selector;
	}

	/** The command on screen, once it includes `part`; run in a shell, its body and status. */
	async function ranOnceItHas(selector: string, part: string) {
		const command = await session.page.waitFor<string>(
			`(() => { const text = document.querySelector('${selector} pre.curl').textContent; return text.includes(${JSON.stringify(part)}) && text; })()`,
			{ what: part },
		);
		const { stdout } = await run('sh', [
			'-c',
			`${command} --silent --show-error --write-out '\\n%{http_code} %{url_effective}'`,
		]);
		const [body, last] = stdout.split(/\n(?=\d{3} )/);
		const [status, url] = last.split(' ');
		return { command, body: JSON.parse(body) as Record<string, unknown>, status, url };
	}

	it('puts the query parameters typed into the URL, quoted for the shell', async () => {
		const { sandbox, page } = session;
		const keys = sandbox.keys as SandboxKeys;
		const instance = await connectedInstance(sandbox, 'Query builder', '+14155550181');
		const messages = clientsFor(sandbox.baseUrl, keys).workspace.messages;
		for (const text of ['one', 'two']) {
			await messages.sendText({ instanceId: instance.id, body: { to: '+14155550182', text } });
		}
		const list = await opened('workspace.messages.list');
		// Every parameter has a field, path and query alike.
		expect(
			await page.evaluate(
				`[...document.querySelectorAll('${list} .request-inputs input')].map((input) => input.dataset.in + ':' + input.dataset.param)`,
			),
		).toEqual([
			'path:instanceId',
			'query:limit',
			'query:cursor',
			'query:chatId',
			'query:direction',
			'query:since',
			'query:until',
			'query:order',
		]);
		await page.type(`${list} input[data-param="instanceId"]`, instance.id);
		await page.type(`${list} input[data-param="limit"]`, '1');
		await page.type(`${list} input[data-param="direction"]`, 'outbound');
		const ran = await ranOnceItHas(list, 'direction=outbound');
		expect(ran.status).toBe('200');
		expect(ran.url).toBe(
			`${sandbox.baseUrl}/api/v1/instances/${instance.id}/messages?limit=1&direction=outbound`,
		);
		expect(ran.body.data).toEqual([expect.objectContaining({ direction: 'outbound' })]);

		// A value with a quote, a space and an ampersand reaches the service as typed.
		const chatId = "it's a chat & more";
		await page.type(`${list} input[data-param="chatId"]`, chatId);
		const quoted = await ranOnceItHas(list, 'chatId=');
		expect(quoted.status).toBe('200');
		expect(new URL(quoted.url).searchParams.get('chatId')).toBe(chatId);
		expect(quoted.body.data).toEqual([]);
	});

	it('sends the JSON body prefilled with the example, or as edited, quoted for the shell', async () => {
		const { sandbox, page } = session;
		const create = await opened('workspace.instances.create');
		const examples = await page.evaluate<Record<string, { value: unknown }>>(
			'window.multichannelConsole.exampleBodies()',
		);
		const prefilled = await page.evaluate<string>(
			`document.querySelector('${create} textarea[data-body]').value`,
		);
		expect(JSON.parse(prefilled)).toEqual(examples['workspace.instances.create'].value);

		const name = `Ada's "phone" $HOME \`id\``;
		await page.type(`${create} textarea[data-body]`, JSON.stringify({ name }));
		const ran = await ranOnceItHas(create, 'Ada');
		expect(ran.status).toBe('201');
		expect(ran.body).toMatchObject({ name });
		expect(sandbox.store.get('instances', String(ran.body.id))).toMatchObject({ name });

		// A body that is not JSON says so, and is sent as typed (the service answers 400).
		await page.type(`${create} textarea[data-body]`, '{"name": ');
		await page.waitFor(`!document.querySelector('${create} p.error').hidden`, {
			what: 'the note on the body',
		});
		const bad = await ranOnceItHas(create, `-d '{"name": '`);
		expect(bad.status).toBe('400');
	});

	it('says plainly which path parameters are empty, and offers the ids to pick for them', async () => {
		const { sandbox, page } = session;
		const keys = sandbox.keys as SandboxKeys;
		const instance = await connectedInstance(sandbox, 'Ids builder', '+14155550183');
		const sent = await clientsFor(sandbox.baseUrl, keys).workspace.messages.sendText({
			instanceId: instance.id,
			body: { to: '+14155550184', text: 'Pick me' },
		});
		const get = await opened('workspace.messages.get');
		const command = await page.text(`${get} pre.curl`);
		expect(command).toContain('/api/v1/instances/<instanceId>/messages/<messageId>');
		expect(command).not.toContain('{instanceId}');
		expect(await page.text(`${get} .empty-params`)).toMatch(
			/^Required and empty: instanceId, messageId\. Pick or type them above/,
		);

		// The instance's field offers the workspace's instances; the message's, once it is filled, its messages.
		const offered = (param: string) =>
			`(() => { const input = document.querySelector('${get} input[data-param="${param}"]');
				return [...(input.list?.options ?? [])].map((option) => option.value + ' ' + option.label); })()`;
		await page.click(`${get} input[data-param="messageId"]`);
		await page.click(`${get} input[data-param="instanceId"]`);
		await page.waitFor(
			`${offered('instanceId')}.some((entry) => entry.startsWith('${instance.id} Ids builder'))`,
			{
				what: 'the instance offered',
			},
		);
		expect(await page.evaluate<string[]>(offered('messageId'))).toEqual([]);
		await page.type(`${get} input[data-param="instanceId"]`, instance.id);
		expect(await page.text(`${get} .empty-params`)).toMatch(
			/^Required and empty: messageId\. Pick or type it above/,
		);
		await page.click(`${get} input[data-param="messageId"]`);
		await page.waitFor(
			`${offered('messageId')}.some((entry) => entry.startsWith('${sent.id} text · Pick me'))`,
			{
				what: 'the message offered',
			},
		);
		await page.type(`${get} input[data-param="messageId"]`, sent.id);
		expect(await page.evaluate(`document.querySelector('${get} .empty-params').hidden`)).toBe(true);
		const { body, status } = await ranOnceItHas(get, sent.id);
		expect(status).toBe('200');
		expect(body).toMatchObject({ id: sent.id });
	});
});
