/**
 * A person's phone number names their chat (issue 34), run as real workflows through n8n-core against the sandbox
 * on loopback: Message → Get Many by chat ID or number (as an AI tool too), Chat → Get and Mark All as Read; a
 * national-looking number with no Default Country and a name that is neither (issue 45) refused, naming the field.
 */
import { runNode } from '../../dev/harness';
import {
	byId,
	credentialsWithCountry,
	failure,
	multichannelNode,
	NODE_NAME,
	registerToolVariant,
	useResource,
} from '../support/nodes';

const suite = useResource('message', { instance: 'Chat numbers' });
const credentialsIn = (defaultCountry?: string) =>
	credentialsWithCountry(suite.service, defaultCountry);

describe('A person’s number names their chat', () => {
	const ana = '+14155550301';
	let instanceId: string;
	let received: string[];

	beforeAll(async () => {
		instanceId = (await suite.service.connectedInstance('Chats by number')).id;
		received = [
			(await suite.service.inbound(instanceId, ana, 'First')).id,
			(await suite.service.inbound(instanceId, ana, 'Second')).id,
		];
		await suite.service.inbound(instanceId, '+14155550302', 'Someone else');
	});

	const history = async (chatId: string, defaultCountry?: string) =>
		await runNode(
			multichannelNode('message', {
				operation: 'getAll',
				instanceId: byId(instanceId),
				chatId: byId(chatId),
				order: 'oldest',
				returnAll: true,
			}),
			{ credentials: credentialsIn(defaultCountry) },
		);

	test.each([
		['14155550301@s.whatsapp.net', undefined],
		['14155550301', undefined],
		['+1 415 555 0301', undefined],
		['(415) 555-0301', 'US'],
	])('Message → Get Many with Chat %s (Default Country %s)', async (chatId, country) => {
		const result = await history(chatId, country);

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_NAME).map((message) => message.id)).toEqual(received);
	});

	/** Message → Get Many as an AI tool, the model giving each of `chats` as the Chat (no Default Country). */
	const historyAsTool = async (chats: string[]) => {
		const { type } = await registerToolVariant();
		const node = multichannelNode(
			'message',
			{
				operation: 'getAll',
				instanceId: byId(instanceId),
				chatId: byId("={{ $fromAI('chatId', 'The chat ID or phone number', 'string') }}"),
				order: 'oldest',
				returnAll: true,
			},
			{ type },
		);
		return await runNode(node, {
			credentials: credentialsIn(),
			items: chats.map((chatId) => ({ chatId })),
		});
	};

	test('Message → Get Many as an AI tool, the model giving the Chat as a number', async () => {
		const result = await historyAsTool(['14155550301', '+1 415 555 0301']);

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_NAME).map((message) => message.id)).toEqual([...received, ...received]);
	});

	test('Chat → Get and Mark All as Read by number', async () => {
		const chat = async (operation: string, chatId: string) =>
			await runNode(
				multichannelNode('chat', { operation, instanceId: byId(instanceId), chatId: byId(chatId) }),
				{ credentials: credentialsIn('US') },
			);

		const got = await chat('get', '415 555 0301');
		const read = await chat('markRead', '+14155550301');

		expect(got.json(NODE_NAME)[0]).toMatchObject({
			id: '14155550301@s.whatsapp.net',
			phoneNumber: ana,
		});
		expect(read.json(NODE_NAME)[0]).toMatchObject({
			id: '14155550301@s.whatsapp.net',
			markedRead: 2,
		});
	});

	test('Message → Get Many as an AI tool, the model giving a name as the Chat: an error it can read (issue 45)', async () => {
		const result = await historyAsTool(['Ana']);

		// n8n's agent gives a tool's error to the model as the tool's answer: before, it got "" (an empty chat).
		expect(failure(result).message).toBe(
			'Invalid value for "Chat" [item 0]: "Ana" is neither a chat ID, a contact ID, a username (with its @) nor a phone number',
		);
		expect(failure(result).description).toMatch(
			/^Name the chat by its chat ID, .* use Chat → Get Many with Search\.$/,
		);
	});

	test('a Chat that looks national with no Default Country is refused, naming the field', async () => {
		const result = await history('(415) 555-0301', '');

		expect(failure(result).message).toBe(
			'Invalid value for "Chat" [item 0]: "(415) 555-0301" looks like a national number (it has parentheses) and no Default Country is set',
		);
	});

	test('a Chat that is a broken @username is refused as a username, not passed on as a chat ID', async () => {
		const result = await history('@bad name');

		expect(failure(result).message).toBe(
			'Invalid value for "Chat" [item 0]: "@bad name" is not a valid username: after the @ come 3 to 35 letters, digits, dots or underscores',
		);
		expect(failure(result).description).toMatch(/^Type the username as the person shows it/);
	});
});
