/**
 * Phone numbers as people write them (issue 34, findings 1 and 5), run as real workflows through n8n-core against
 * the sandbox on loopback: US, DE, UK, BR and IN numbers written nationally and internationally, read in the
 * credential's Default Country, the node's, or none; national-looking numbers with no Default Country and
 * impossible calling codes and lengths refused before any request, naming the field and the item; digits alone
 * never guessed (issue 45); every number field alike (To, contacts, participants). A person's number as the Chat:
 * chat-numbers.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../dev/harness';
import {
	byId,
	credentialsWithCountry,
	failure,
	multichannelNode,
	NODE_NAME,
	useResource,
} from '../support/nodes';

const suite = useResource('message', { instance: 'Numbers' });
const outbound = () =>
	suite.service.sandbox.store.all('messages', (message) => message.direction === 'outbound');

const credentialsIn = (defaultCountry?: string) =>
	credentialsWithCountry(suite.service, defaultCountry);

/** Send Text to each number (one item each), every item going on after a failure; what each item came to. */
async function sendTo(numbers: string[], credentialCountry?: string, parameters: IDataObject = {}) {
	const result = await runNode(
		suite.node(
			{ operation: 'sendText', to: '={{ $json.to }}', text: 'Hello', ...parameters },
			{ onError: 'continueRegularOutput' },
		),
		{ credentials: credentialsIn(credentialCountry), items: numbers.map((to) => ({ to })) },
	);
	return result.json(NODE_NAME).map((item) => (item.error as string | undefined) ?? item.to);
}

/** Each country's numbers as people write them at home (with the country chosen) and abroad (with none). */
const COUNTRIES: Array<{
	country: string;
	national: string[];
	international: string[];
	e164: string;
}> = [
	{
		country: 'US',
		national: ['(415) 555-0177', '415-555-0177', '415.555.0177', '1 (415) 555-0177'],
		international: ['+1 415 555 0177', '001 415 555 0177', '14155550177', '1-415-555-0177'],
		e164: '+14155550177',
	},
	{
		country: 'DE',
		national: ['030 1234567', '(030) 123 45 67', '030/1234567'],
		international: ['+49 30 1234567', '0049 30 1234567', '49301234567', '49 30 1234567'],
		e164: '+49301234567',
	},
	{
		country: 'GB',
		national: ['07700 900123', '(07700) 900123', '7700 900123'],
		international: ['+44 7700 900123', '0044 7700 900123', '447700900123', '44 7700 900123'],
		e164: '+447700900123',
	},
	{
		country: 'BR',
		national: ['(11) 91234-5678', '011 91234-5678', '11 91234-5678'],
		international: ['+55 11 91234-5678', '0055 11 91234 5678', '5511912345678', '55 11 91234-5678'],
		e164: '+5511912345678',
	},
	{
		country: 'IN',
		national: ['098765 43210', '98765 43210', '(0) 98765 43210'],
		international: ['+91 98765 43210', '0091 98765 43210', '919876543210', '91 98765 43210'],
		e164: '+919876543210',
	},
];

/** The hint of the error that refuses Send Text to `to`, read in the Default Country `country`. */
async function refusalHint(to: string, country: string) {
	const result = await runNode(suite.node({ operation: 'sendText', to, text: 'Hi' }), {
		credentials: credentialsIn(country),
	});
	return failure(result).description;
}

describe('To, read in the Default Country', () => {
	test.each(COUNTRIES)(
		'$country: national and international forms with Default Country $country go to $e164',
		async ({ country, national, international, e164 }) => {
			const sent = outbound().length;
			const numbers = [...national, ...international];

			const to = await sendTo(numbers, country);

			expect(to).toEqual(numbers.map(() => e164));
			expect(
				outbound()
					.slice(sent)
					.map((message) => message.to),
			).toEqual(numbers.map(() => e164));
		},
	);

	test.each(COUNTRIES)(
		'$country: international forms with no Default Country (and an old credential) go to $e164',
		async ({ international, e164 }) => {
			expect(await sendTo(international, '')).toEqual(international.map(() => e164));
			expect(await sendTo(international)).toEqual(international.map(() => e164));
		},
	);

	test('digits alone are national only where the country writes its numbers so (the US); elsewhere never guessed', async () => {
		const sent = outbound().length;
		const digitsAlone = [
			['US', '4155550177', '+14155550177'],
			// Another country's number as the channel's ids carry it, too long to be a British one: international.
			['GB', '14155550178', '+14155550178'],
			['FR', '33612345678', '+33612345678'],
			['FR', '447700900123', '+447700900123'],
		];
		for (const [country, written, e164] of digitsAlone) {
			// A text of its own: the same send as an earlier test's would be that one's idempotent replay.
			expect(await sendTo([written], country, { text: 'Digits alone' })).toEqual([e164]);
		}
		expect(outbound().length).toBe(sent + digitsAlone.length);
	});

	test('digits alone that could be another country’s number or the Default Country’s without its 0 are refused, saying how to write each (issue 45)', async () => {
		const sent = outbound().length;
		const errors = await sendTo(['14155550177', '442079460958'], 'DE');
		expect(errors).toEqual([
			'Invalid value for "To" [item 0]: "14155550177" could be +14155550177 or a number of Germany (the Default Country, DE, +49) written without its trunk prefix 0',
			'Invalid value for "To" [item 1]: "442079460958" could be +442079460958 or a number of Germany (the Default Country, DE, +49) written without its trunk prefix 0',
		]);
		expect(await sendTo(['612345678'], 'FR')).toEqual([
			'Invalid value for "To" [item 0]: "612345678" could be +612345678 or a number of France (the Default Country, FR, +33) written without its trunk prefix 0',
		]);
		expect(await sendTo(['11912345678'], 'BR')).toEqual([
			'Invalid value for "To" [item 0]: "11912345678" could be +11912345678 or a number of Brazil (the Default Country, BR, +55) written without its trunk prefix 0',
		]);
		expect(await refusalHint('14155550177', 'DE')).toBe(
			'Enter it with + and its country code: +14155550177, or +4914155550177 for Germany.',
		);
		expect(outbound().length).toBe(sent);
	});

	test('digits alone that are no international number are refused where national numbers start with 0 (DE, GB, IN)', async () => {
		const sent = outbound().length;
		const errors = await sendTo(['301234567', '7700900123', '9876543210'], '', {
			defaultCountry: '={{ ["DE", "GB", "IN"][$itemIndex] }}',
		});
		expect(errors).toEqual([
			'Invalid value for "To" [item 0]: "301234567" is no international number, and a national number of Germany (the Default Country, DE, +49) starts with its trunk prefix 0',
			'Invalid value for "To" [item 1]: "7700900123" is no international number, and a national number of United Kingdom (the Default Country, GB, +44) starts with its trunk prefix 0',
			'Invalid value for "To" [item 2]: "9876543210" is no international number, and a national number of India (the Default Country, IN, +91) starts with its trunk prefix 0',
		]);
		expect(await refusalHint('9876543210', 'IN')).toBe(
			'Write it 09876543210 or +919876543210 if it is a number of India; else enter it with its country code, such as +14155550123 or 0044 20 7946 0958.',
		);
		expect(outbound().length).toBe(sent);
	});

	test('international forms keep their country whatever the Default Country', async () => {
		const numbers = [
			'+44 7700 900123',
			'0049 30 1234567',
			'+91 98765 43210',
			'+55 11 91234-5678',
			// Another country's number as the channel's ids carry it: too long to be a national number of the US.
			'447700900123',
			'49 30 1234567',
		];
		expect(await sendTo(numbers, 'US')).toEqual([
			'+447700900123',
			'+49301234567',
			'+919876543210',
			'+5511912345678',
			'+447700900123',
			'+49301234567',
		]);
	});

	test("the node's Default Country takes the place of the credential's; From Credential keeps it", async () => {
		expect(await sendTo(['(415) 555-0177'], 'DE', { defaultCountry: 'US' })).toEqual([
			'+14155550177',
		]);
		expect(await sendTo(['030 1234567'], 'DE', { defaultCountry: '' })).toEqual(['+49301234567']);
		expect(await sendTo(['030 1234567'], '', { defaultCountry: 'DE' })).toEqual(['+49301234567']);
		// An expression may give a code the table does not know: refused, not read as none.
		expect(await sendTo(['(415) 555-0177'], 'US', { defaultCountry: '=XX' })).toEqual([
			'Invalid value for "To" [item 0]: the Default Country "XX" is not a two-letter country code',
		]);
	});
});

describe('Refused before any request, naming the field and the item', () => {
	test.each(COUNTRIES)(
		'$country: national forms with no Default Country are refused, not sent to another country',
		async ({ national }) => {
			const sent = outbound().length;

			const errors = await sendTo(national, '');

			expect(errors).toEqual(
				national.map((number, item) =>
					expect.stringMatching(
						new RegExp(
							`^Invalid value for "To" \\[item ${item}\\]: "${number.replace(/[()+.]/g, '\\$&')}" looks like a national number \\(.+\\) and no Default Country is set$`,
						),
					),
				),
			);
			expect(outbound().length).toBe(sent);
		},
	);

	test('the error says how to fix it: a Default Country, or the country code', async () => {
		const result = await runNode(
			suite.node({ operation: 'sendText', to: '(415) 555-0177', text: 'Hi' }),
			{
				credentials: credentialsIn(),
			},
		);

		expect(failure(result).message).toBe(
			'Invalid value for "To" [item 0]: "(415) 555-0177" looks like a national number (it has parentheses) and no Default Country is set',
		);
		expect(failure(result).description).toMatch(
			/^Choose the Default Country it is written in \(in the credential, or the node's Default Country\), or enter it with its country code/,
		);
	});

	test('impossible calling codes and lengths are refused with the reason', async () => {
		const sent = outbound().length;

		const errors = await sendTo(
			[
				'+999 1234 5678',
				'+1 415 555 01',
				'+44 7700 900123 4',
				'+49 30',
				'0091 98765',
				'4155550177',
			],
			'',
		);

		expect(errors).toEqual([
			'Invalid value for "To" [item 0]: "+999 1234 5678" is not a valid phone number: no country has the calling code it starts with',
			'Invalid value for "To" [item 1]: "+1 415 555 01" is not a valid phone number: it has 8 digits after +1 (United States and others), whose numbers have 7 or 10',
			'Invalid value for "To" [item 2]: "+44 7700 900123 4" is not a valid phone number: it has 11 digits after +44 (United Kingdom and others), whose numbers have 7, 9 or 10',
			'Invalid value for "To" [item 3]: "+49 30" is not a valid phone number: it has 2 digits after +49 (Germany), whose numbers have 4 to 15',
			'Invalid value for "To" [item 4]: "0091 98765" is not a valid phone number: it has 5 digits after +91 (India), whose numbers have 8 to 13',
			// The issue's number without a country: +41 (Switzerland) takes 9 digits after it, not 8.
			'Invalid value for "To" [item 5]: "4155550177" is not a valid phone number: it has 8 digits after +41 (Switzerland), whose numbers have 9 or 12',
		]);
		expect(outbound().length).toBe(sent);
	});

	test('digits alone with no Default Country that are no international number: the fix names Default Country (4155550177 in the US)', async () => {
		const result = await runNode(
			suite.node({ operation: 'sendText', to: '4155550177', text: 'Hi' }),
			{
				credentials: credentialsIn(''),
			},
		);
		expect(failure(result).description).toBe(
			"Check the digits (one may be missing or extra), and enter it with its country code, such as +14155550123 or 0044 20 7946 0958; or, if it is a national number, choose the Default Country it is written in (in the credential, or the node's Default Country).",
		);
	});

	test('a national number of the wrong length for the Default Country is refused as that country’s', async () => {
		expect(await sendTo(['(415) 555-017', '030 12'], 'US')).toEqual([
			'Invalid value for "To" [item 0]: "(415) 555-017" is not a valid phone number in United States (the Default Country, US, +1): its national numbers have 10 digits, without the trunk prefix 1',
			'Invalid value for "To" [item 1]: "030 12" is not a valid phone number in United States (the Default Country, US, +1): its national numbers have 10 digits, without the trunk prefix 1',
		]);
	});
});

describe('Every number field reads alike', () => {
	test('Contact → Check Numbers and Create, Group → Create with Default Country DE', async () => {
		const instanceId = byId(suite.instance.id);
		const credentials = credentialsIn('DE');
		const checked = await runNode(
			multichannelNode('contact', {
				operation: 'checkNumbers',
				instanceId,
				phoneNumbers: '030 1234567, 0151 23456789, +44 7700 900123',
			}),
			{ credentials },
		);
		const contact = await runNode(
			multichannelNode('contact', {
				operation: 'create',
				instanceId,
				phoneNumber: '(0151) 2345 6789',
			}),
			{ credentials },
		);
		const group = await runNode(
			multichannelNode('group', {
				operation: 'create',
				instanceId,
				subject: 'Berlin',
				participants: '0151 23456789, 030 1234567',
			}),
			{ credentials },
		);

		expect(checked.json(NODE_NAME).map((item) => item.phoneNumber)).toEqual([
			'+49301234567',
			'+4915123456789',
			'+447700900123',
		]);
		expect(contact.json(NODE_NAME)[0].phoneNumber).toBe('+4915123456789');
		const stored = suite.service.sandbox.store.get('groups', group.json(NODE_NAME)[0].id as string);
		expect(stored?.participants.map((participant) => participant.phoneNumber)).toEqual([
			suite.instance.phoneNumber,
			'+4915123456789',
			'+49301234567',
		]);
	});

	test('with no Default Country, a national number in Participants is refused naming the field and item', async () => {
		const result = await runNode(
			multichannelNode('group', {
				operation: 'create',
				instanceId: byId(suite.instance.id),
				subject: 'Nowhere',
				participants: '+49 30 1234567, 0151 23456789',
			}),
			{ credentials: credentialsIn('') },
		);

		expect(failure(result).message).toBe(
			'Invalid value for "Participants" [item 0]: "0151 23456789" looks like a national number (it starts with a trunk 0) and no Default Country is set',
		);
	});
});
