import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	CAMPAIGN_LIMITS,
	DEFAULT_OPT_OUT_CONFIRMATION,
	DEFAULT_STOP_WORDS,
	type CreateCampaign,
} from '../../../../src/client/resources/campaigns';
import { MAX_LENGTH } from '../../../../src/client/resources/message-sends';
import type { z } from '../../../../src/client/zod';
import { optionsCollection } from '../../../shared/collections';
import { invalidValue } from '../../../shared/input-errors';
import { compact, readDateTime, splitList } from '../../../shared/values';

/**
 * Campaign → Create's settings, read once from the first item (they are the campaign's, not a recipient's): the
 * name, the message, the pacing and the Options (send window, tracked links, opt-outs, start time, reference).
 */

/** How a person writes a placeholder, where n8n would read `{{ }}` as its own expression. */
const PLACEHOLDER_HINT =
	"Write {{name}} for each recipient's value of name (see Variables). In Fixed mode type it as it is; in an expression write {{ '{{' }}name}}, since n8n reads {{ }} itself there.";

/** `{{name}}` as an expression holds it: n8n reads it as a variable of its own and gives "" (no error). */
const BARE_PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/;

/**
 * A text that may hold placeholders. In an expression, `{{name}}` would silently become nothing: refused,
 * naming the field and the way to write it.
 */
function placeholderText(context: IExecuteFunctions, name: string, field: string): string {
	const raw = context.getNode().parameters[name];
	const bare = typeof raw === 'string' && raw.startsWith('=') ? BARE_PLACEHOLDER.exec(raw) : null;
	if (bare) {
		throw invalidValue(
			context.getNode(),
			field,
			0,
			`in an expression, ${bare[0]} is read by n8n and gives nothing`,
			`Write {{ '{{' }}${bare[1]}}} to send the placeholder, or switch the field to Fixed and write {{${bare[1]}}}.`,
		);
	}
	const text = context.getNodeParameter(name, 0, '') as string;
	if (typeof raw === 'string' && raw.startsWith('=')) sameForEveryItem(context, name, field, text);
	return text;
}

/**
 * An expression read from the first item only: one that gives each item its own text (`Hi {{ $json.name }}`)
 * would send the first item's text to everyone. Compared at every item (an expression only: Fixed text costs
 * nothing), refused naming the first that differs; a per-recipient value belongs in a placeholder.
 */
function sameForEveryItem(context: IExecuteFunctions, name: string, field: string, first: string) {
	const count = context.getInputData().length;
	for (let itemIndex = 1; itemIndex < count; itemIndex++) {
		const text = context.getNodeParameter(name, itemIndex, '') as string;
		if (text === first) continue;
		throw invalidValue(
			context.getNode(),
			field,
			itemIndex,
			`the expression gives each item its own text (item 0: ${quoted(first)}, item ${itemIndex}: ${quoted(text)}), but a campaign sends one ${field} to every recipient`,
			`Write each recipient's value as a placeholder, filled by the service from Variables: in the expression {{ '{{' }}name}} instead of {{ $json.name }}, or in Fixed mode {{name}}.`,
		);
	}
}

const quoted = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);

export const settingsFields: INodeProperties[] = [
	{
		displayName: 'Campaign Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Sunday offer',
		description:
			'Up to 200 characters. Running the workflow again with the same name creates no second campaign: the new input items are added to this one, the ones already in it are skipped (see Reference).',
	},
	{
		displayName: 'Message Type',
		name: 'messageType',
		type: 'options',
		default: 'text',
		options: [
			{ name: 'Text', value: 'text' },
			{ name: 'Media by URL', value: 'media', description: 'An image, video, audio or document' },
		],
	},
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		default: '',
		required: true,
		typeOptions: { rows: 4 },
		displayOptions: { show: { messageType: ['text'] } },
		placeholder: 'e.g. Hi {{name}}, our Sunday offer is on',
		description: `The text every recipient gets, up to ${MAX_LENGTH.text} characters, with their own values in its placeholders`,
		hint: PLACEHOLDER_HINT,
	},
	{
		displayName: 'Media URL',
		name: 'mediaUrl',
		type: 'string',
		default: '',
		required: true,
		displayOptions: { show: { messageType: ['media'] } },
		placeholder: 'e.g. https://example.com/offer.jpg',
		description: 'A public http(s) URL of the file; the service fetches it once',
	},
	{
		displayName: 'Media Type',
		name: 'mediaType',
		type: 'options',
		default: 'image',
		displayOptions: { show: { messageType: ['media'] } },
		options: [
			{ name: 'Audio', value: 'audio' },
			{ name: 'Document', value: 'document' },
			{ name: 'Image', value: 'image' },
			{ name: 'Video', value: 'video' },
		],
		description: 'How the file is shown to the recipients',
	},
	{
		displayName: 'Caption',
		name: 'caption',
		type: 'string',
		default: '',
		typeOptions: { rows: 2 },
		displayOptions: { show: { messageType: ['media'] } },
		description: `Text shown with the file, up to ${MAX_LENGTH.caption} characters, with each recipient's values in its placeholders`,
		hint: PLACEHOLDER_HINT,
	},
	{
		displayName: 'Messages Per Minute',
		name: 'perMinute',
		type: 'number',
		default: 20, // CAMPAIGN_LIMITS.perMinute.default: n8n's lint reads a literal
		typeOptions: {
			minValue: CAMPAIGN_LIMITS.perMinute.min,
			maxValue: CAMPAIGN_LIMITS.perMinute.max,
		},
		description:
			'At most this many sends a minute: the service sends one every 60/N seconds, whether or not n8n is running',
	},
	{
		displayName: 'Random Pause (Seconds)',
		name: 'jitterSeconds',
		type: 'number',
		default: 0,
		typeOptions: { minValue: 0, maxValue: CAMPAIGN_LIMITS.jitterSeconds.max },
		description:
			'A random pause of 0 to this many seconds added between sends, so that they do not come at a robotic beat',
	},
	optionsCollection([
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'e.g. offer.pdf',
			description: 'The name a document is shown with',
			displayOptions: { show: { '/messageType': ['media'] } },
		},
		{
			displayName: 'Opt-Out Confirmation',
			name: 'optOutConfirmation',
			type: 'string',
			default: DEFAULT_OPT_OUT_CONFIRMATION,
			description: 'What a contact who answers with a stop word is sent back',
		},
		{
			displayName: 'Reference',
			name: 'reference',
			type: 'string',
			default: '',
			placeholder: 'e.g. sunday-offer-2026-12-06',
			description:
				'What makes the campaign one: a run with a reference already used adds its new recipients to that campaign instead of creating another. Leave empty to derive one from the workflow, this node and the Campaign Name.',
		},
		{
			displayName: 'Send Window From',
			name: 'windowFrom',
			type: 'string',
			default: '',
			placeholder: 'e.g. 09:00',
			description:
				'Send only from this time of day (HH:MM, with Send Window To): a send due outside the window waits for the next opening',
		},
		{
			displayName: 'Send Window To',
			name: 'windowTo',
			type: 'string',
			default: '',
			placeholder: 'e.g. 18:00',
			description:
				'Send only until this time of day (HH:MM); before From, the window runs past midnight',
		},
		{
			displayName: 'Send Window Time Zone',
			name: 'windowTimeZone',
			type: 'string',
			default: '',
			placeholder: 'e.g. Europe/Berlin',
			description:
				"The time zone of the send window (an IANA name); empty: the workflow's (its Settings → Timezone, else n8n's)",
		},
		{
			displayName: 'Start At',
			name: 'startAt',
			type: 'dateTime',
			default: '',
			description:
				"When the first message goes; empty: now. In the workflow's time zone unless an offset is given.",
		},
		{
			displayName: 'Stop Words',
			name: 'stopWords',
			type: 'string',
			default: DEFAULT_STOP_WORDS.join(', '),
			description:
				'A contact who answers the campaign with one of these alone (any case) is opted out of every campaign and sent the Opt-Out Confirmation. Separated by commas.',
		},
		{
			displayName: 'Track Links',
			name: 'trackLinks',
			type: 'boolean',
			default: false,
			description:
				'Whether to replace each http(s) link in the text or caption with a short link per recipient, so that the Multichannel Short Link Trigger tells who clicked it',
		},
		...(['Source', 'Medium', 'Campaign', 'Term', 'Content'] as const).map(
			(part): INodeProperties => ({
				displayName: `UTM ${part}`,
				name: `utm${part}`,
				type: 'string',
				default: '',
				description: `The utm_${part.toLowerCase()} parameter, added to each link of the message (with Track Links; Source, Medium and Campaign go together)`,
			}),
		),
	]),
];

export const settingsFieldNames = {
	'body.name': 'Campaign Name',
	'body.message.text': 'Text',
	'body.message.media.url': 'Media URL',
	'body.message.media.caption': 'Caption',
	'body.message.media.fileName': 'File Name',
	'body.pacing.perMinute': 'Messages Per Minute',
	'body.pacing.jitterSeconds': 'Random Pause (Seconds)',
	'body.reference': 'Reference',
	'body.window.from': 'Send Window From',
	'body.window.to': 'Send Window To',
	'body.window.timeZone': 'Send Window Time Zone',
	'body.optOut.stopWords': 'Stop Words',
	'body.optOut.confirmation': 'Opt-Out Confirmation',
	'body.links.utm.source': 'UTM Source',
	'body.links.utm.medium': 'UTM Medium',
	'body.links.utm.campaign': 'UTM Campaign',
	'body.links.utm.term': 'UTM Term',
	'body.links.utm.content': 'UTM Content',
	'body.startAt': 'Start At',
};

type Settings = Omit<z.infer<typeof CreateCampaign>, 'recipients' | 'reference'>;

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : undefined);

/** The campaign's message: its text, or its file by URL with a caption. */
function messageOf(context: IExecuteFunctions, options: IDataObject): Settings['message'] {
	if (context.getNodeParameter('messageType', 0) === 'text') {
		return { text: placeholderText(context, 'text', 'Text') };
	}
	const media = compact({
		url: trimmed(context.getNodeParameter('mediaUrl', 0)) ?? '',
		mediaType: context.getNodeParameter('mediaType', 0) as 'image',
		caption: placeholderText(context, 'caption', 'Caption'),
		fileName: trimmed(options.fileName),
	});
	return { media };
}

/** The send window, when one end is given (the service names the other when it is missing). */
function windowOf(context: IExecuteFunctions, options: IDataObject): Pick<Settings, 'window'> {
	const from = trimmed(options.windowFrom);
	const to = trimmed(options.windowTo);
	if (!from && !to) return {};
	const timeZone = trimmed(options.windowTimeZone) || context.getTimezone();
	return { window: compact({ from, to, timeZone }) as NonNullable<Settings['window']> };
}

/** Tracked links, with their UTM fields when any is given. */
function linksOf(options: IDataObject): Pick<Settings, 'links'> {
	const utm = compact({
		source: trimmed(options.utmSource),
		medium: trimmed(options.utmMedium),
		campaign: trimmed(options.utmCampaign),
		term: trimmed(options.utmTerm),
		content: trimmed(options.utmContent),
	});
	const withUtm = Object.keys(utm).length > 0;
	if (options.trackLinks !== true && !withUtm) return {};
	return {
		links: {
			track: options.trackLinks === true,
			...(withUtm ? { utm: utm as NonNullable<NonNullable<Settings['links']>['utm']> } : {}),
		},
	};
}

/** Stop words and the confirmation, when they differ from the service's own. */
function optOutOf(options: IDataObject): Pick<Settings, 'optOut'> {
	const stopWords = splitList(options.stopWords);
	const optOut = compact({
		stopWords: stopWords.length > 0 ? stopWords : undefined,
		confirmation: trimmed(options.optOutConfirmation),
	});
	return Object.keys(optOut).length > 0 ? { optOut } : {};
}

/** The campaign as the first item's fields describe it, and when it starts. */
export function readSettings(
	context: IExecuteFunctions,
	options: IDataObject,
): { settings: Settings; startAt?: string } {
	const settings: Settings = {
		name: (trimmed(context.getNodeParameter('name', 0)) ?? '') as string,
		message: messageOf(context, options),
		pacing: {
			perMinute: context.getNodeParameter('perMinute', 0) as number,
			jitterSeconds: context.getNodeParameter('jitterSeconds', 0) as number,
		},
		...windowOf(context, options),
		...linksOf(options),
		...optOutOf(options),
	};
	const startAt = options.startAt
		? readDateTime(context, options.startAt, 'Start At', 0)
		: undefined;
	return { settings, ...(startAt ? { startAt } : {}) };
}
