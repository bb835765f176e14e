/**
 * Validation problems in a person's words, one place for the nodes and the sandbox: every kind of zod issue the
 * contract's schemas can raise is reworded from zod's default ("Too big: expected array to have <=3 items"), a
 * message a schema wrote itself is kept, and no text carries `<` or `>` (n8n's editor shows an error's detail as
 * HTML, where `<=` starts a tag and cuts the line). Then the same words in the sandbox's 400, over real HTTP.
 */
import { issueText } from '../../src/client/issue-text';
import { PhoneNumber } from '../../src/client/schemas';
import { SendButtons } from '../../src/client/resources/message-sends';
import { z } from '../../src/client/zod';
import { connectedInstance, raw, suiteSandbox } from '../support/sandbox';

/** The words for the first issue of `schema` on `value`. */
function said(schema: z.ZodType, value: unknown): string {
	const result = schema.safeParse(value);
	if (result.success) throw new Error('expected an issue');
	return issueText(result.error.issues[0], value);
}

const buttons = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ id: `b${index}`, title: `B${index}` }));

it.each<[string, z.ZodType, unknown, string]>([
	[
		'a list too long, named by its field',
		SendButtons,
		{ to: '+14155550100', text: 'Pick', buttons: buttons(4) },
		'at most 3 buttons; there are 4',
	],
	[
		'an empty list',
		SendButtons,
		{ to: '+14155550100', text: 'Pick', buttons: [] },
		'needs at least one button',
	],
	[
		'a list of phone numbers too short',
		z.object({ phoneNumbers: z.array(z.string()).min(2) }),
		{ phoneNumbers: ['+1'] },
		'at least 2 phone numbers; there is 1',
	],
	['text too long', z.string().max(5), 'abcdefg', 'at most 5 characters; this one has 7'],
	['text too short', z.string().min(3), 'ab', 'at least 3 characters; this one has 2'],
	['empty text', z.string().min(1), '', 'must not be empty'],
	['a number too big', z.number().max(25), 30, 'must be at most 25; it is 30'],
	['a number too small, exclusive', z.number().gt(0), 0, 'must be more than 0; it is 0'],
	['a fraction', z.number().int(), 2.5, 'must be a whole number; it is 2.5'],
	['a number that is text', z.number(), '12', 'must be a number; it is text'],
	['a missing field', z.object({ to: z.string() }), {}, 'is required'],
	['a list that is an object', z.array(z.string()), {}, 'must be a list; it is an object'],
	['a field not taken', z.strictObject({}), { extra: 1 }, 'has a field it does not take: "extra"'],
	['a choice', z.enum(['qr', 'code']), 'sms', 'must be one of "qr", "code"'],
	['an email', z.email(), 'someone', 'must be an email address'],
	['a URL', z.url(), 'nowhere', 'must be a URL (http:// or https://)'],
	['a multiple', z.number().multipleOf(5), 7, 'must be a multiple of 5'],
	[
		'a message the contract wrote is kept',
		PhoneNumber,
		'0171 555',
		'must be an international number in E.164 form, like +14155550123',
	],
])('%s', (_, schema, value, expected) => {
	const text = said(schema, value);
	expect(text).toBe(expected);
	expect(text).not.toMatch(/[<>]/);
});

it('never throws, whatever it is handed', () => {
	expect(issueText({ code: 'weird' } as never, undefined)).toBe('is not valid');
	expect(issueText(null as never, undefined)).toBe('is not valid');
});

describe('in the sandbox’s answers', () => {
	const suite = suiteSandbox();

	it('a 400 names the field and says what is wrong in the same words', async () => {
		const instance = await connectedInstance(suite.sandbox, 'Words', '+14155550240');
		const answer = await raw(
			suite.sandbox.baseUrl,
			'POST',
			`/api/v1/instances/${instance.id}/messages/buttons`,
			{
				key: suite.keys.workspace,
				body: { to: '+14155550241', text: 'Pick', buttons: buttons(4) },
			},
		);
		expect(answer.status).toBe(400);
		expect(answer.body).toMatchObject({
			error: {
				code: 'validation_failed',
				details: [{ field: 'body.buttons', message: 'at most 3 buttons; there are 4' }],
			},
		});
	});
});
