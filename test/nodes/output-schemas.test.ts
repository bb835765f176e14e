/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-require-imports -- test code runs in plain Node, never inside n8n; it loads the node files as n8n does */
/**
 * Output schemas (issue 14, item 12): the editor asks n8n for `/schemas/<node type>/<version>/<resource>/
 * <operation>.json` (a trigger: `/schemas/<node type>/<version>.json`) to offer an action's fields before it
 * has run, and n8n answers with the node's `__schema__` files. Every operation and trigger has one, each made
 * from the operation's zod `output` by `npm run openapi`.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties, INodeType } from 'n8n-workflow';

import { outputSchemaFiles, ROOT } from '../../dev/output-schemas/build';
import { existingSchemaFiles } from '../../dev/output-schemas/generate';

const generated = outputSchemaFiles();
const read = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));

/** Each node n8n loads, with the paths the editor asks for, read from its description alone. */
function requestedSchemas(): string[] {
	const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[] };
	};
	return packageJson.n8n.nodes.flatMap((file) => {
		const source = file.replace(/^dist\//, '').replace(/\.js$/, '.ts');
		const className = path.basename(source, '.node.ts');
		const { description } = new (
			require(path.join(ROOT, source)) as Record<string, new () => INodeType>
		)[className]();
		const folder = path.join(path.dirname(source), '__schema__', 'v1.0.0');
		// The triggers have versions 1 and 2 (the same output), the action nodes only 1.
		if (description.group.includes('trigger')) {
			expect(description.version).toEqual([1, 2]);
			return [`${folder}.json`, folder.replace(/v1\.0\.0$/, 'v2.0.0.json')];
		}
		expect(description.version).toBe(1);
		const values = (property?: INodeProperties) =>
			(property?.options ?? []).map((option) => String((option as { value: unknown }).value));
		const resources = values(description.properties.find(({ name }) => name === 'resource'));
		return resources.flatMap((resource) => {
			const operations = description.properties.find(
				({ name, displayOptions }) =>
					name === 'operation' && displayOptions?.show?.resource?.includes(resource),
			);
			return values(operations).map((operation) =>
				path.join(folder, resource, `${operation}.json`),
			);
		});
	});
}

describe('output schemas', () => {
	it('exist for every operation and trigger the editor can ask for', () => {
		const requested = requestedSchemas();
		expect(requested.length).toBeGreaterThan(50);
		expect(requested.filter((file) => !existsSync(path.join(ROOT, file)))).toEqual([]);
		expect([...generated.keys()].sort()).toEqual([...requested].sort());
	});

	it('are up to date with the zod schemas (run `npm run openapi` after changing an output)', () => {
		const stale = [...generated].filter(
			([file, text]) =>
				!existsSync(path.join(ROOT, file)) || readFileSync(path.join(ROOT, file), 'utf8') !== text,
		);
		expect(stale.map(([file]) => file)).toEqual([]);
		expect(existingSchemaFiles().filter((file) => !generated.has(file))).toEqual([]);
	});

	it('are what the editor accepts: an object schema with properties', () => {
		for (const file of generated.keys()) {
			const schema = read(file);
			expect({ file, type: schema.type, properties: typeof schema.properties }).toEqual({
				file,
				type: 'object',
				properties: 'object',
			});
		}
	});

	it('describe what the node outputs: simplified where Simplify is on by default', () => {
		const group = read('nodes/Multichannel/__schema__/v1.0.0/group/create.json');
		expect(Object.keys(group.properties)).toEqual(
			expect.arrayContaining(['id', 'subject', 'participantCount', 'announcementsOnly']),
		);
		expect(group.properties.participants).toBeUndefined();
		const message = read('nodes/Multichannel/__schema__/v1.0.0/message/get.json');
		expect(Object.keys(message.properties)).toEqual(
			expect.arrayContaining(['id', 'chatId', 'status', 'text']),
		);
		const sent = read('nodes/Multichannel/__schema__/v1.0.0/message/sendText.json');
		expect(sent.properties.content.type).toBe('object');
		expect(sent.properties.status).toEqual({ type: 'string' });
		expect(read('nodes/Multichannel/__schema__/v1.0.0/contact/delete.json').properties).toEqual({
			deleted: { type: 'boolean' },
			id: { type: 'string' },
		});
		// Get Many outputs one item per element, not the page.
		const links = read('nodes/MultichannelShortLink/__schema__/v1.0.0/link/getAll.json');
		expect(links.properties.shortUrl).toEqual({ type: 'string' });
		expect(links.properties.nextCursor).toBeUndefined();
	});

	it('never offer a webhook secret, which the node never outputs', () => {
		for (const [file, text] of generated) {
			if (file.includes(`${path.sep}webhook${path.sep}`)) expect(text).not.toContain('"secret"');
		}
	});

	it("of triggers are the event around the payloads of the trigger's events", () => {
		const messaging = read('nodes/MultichannelTrigger/__schema__/v1.0.0.json');
		expect(Object.keys(messaging.properties)).toEqual(
			expect.arrayContaining(['id', 'type', 'createdAt', 'data']),
		);
		// Messages, instances, groups and contacts: every field any of them carries.
		expect(Object.keys(messaging.properties.data.properties)).toEqual(
			expect.arrayContaining(['chatId', 'status', 'subject', 'participants', 'phoneNumber']),
		);
		// A field several payloads share says only what they all say: no "Group id" on every event's id.
		expect(messaging.properties.data.properties.id.description).toBeUndefined();
		expect(messaging.properties.data.properties.subject).toBeDefined();
		// What a trigger lifts to the top level: the reply to buttons, who clicked a tracked link.
		expect(messaging.properties.reply.properties.toMessageId).toBeDefined();
		// What Download Media adds: why a message's file is not attached, and on each gathered message its field.
		expect(messaging.properties.mediaNotAttached.type).toBe('string');
		const gathered = messaging.properties.data.properties.messages.items.properties;
		expect(gathered.binaryField.description).toMatch(/binary field/);
		expect(gathered.mediaNotAttached.type).toBe('string');
		const links = read('nodes/MultichannelShortLinkTrigger/__schema__/v1.0.0.json');
		expect(Object.keys(links.properties.data.properties)).toEqual(
			expect.arrayContaining(['shortUrl', 'link', 'click']),
		);
		expect(links.properties.messageId.description).toMatch(/tracked link/);
		expect(links.properties.recipient.type).toBe('string');
		const automation = read('nodes/MultichannelAutomationTrigger/__schema__/v1.0.0.json');
		expect(Object.keys(automation.properties.data.properties)).toEqual(
			expect.arrayContaining(['name', 'payload']),
		);
	});
});
