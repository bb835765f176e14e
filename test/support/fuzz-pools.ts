import fc from 'fast-check';

/**
 * What the fuzz has seen the sandbox create, by the name of the parameter or field that names it (`instanceId`,
 * `messageId`, `code`…), so that requests reach existing things as well as missing ones.
 */
export type Pools = Record<string, string[]>;

/** Which pool the id of a created thing goes to, by the path it was created on. */
const CREATED: Array<[RegExp, string]> = [
	[/^\/api\/v1\/instances$/, 'instanceId'],
	[
		/\/messages\/(?:text|media|media\/upload|location|contact|reaction|poll|buttons|list)$/,
		'messageId',
	],
	[/\/groups$/, 'groupId'],
	[/\/contacts$/, 'contactId'],
	[/\/answers$/, 'answerId'],
	[/\/webhooks$/, 'webhookId'],
	[/^\/api\/v1\/links$/, 'linkId'],
];

const MAX_POOL = 20;

function add(pools: Pools, name: string, value: unknown) {
	if (typeof value !== 'string') return;
	const pool = (pools[name] ??= []);
	if (!pool.includes(value)) pool.push(value);
	if (pool.length > MAX_POOL) pool.shift();
}

/** Remembers what a successful create answered. */
export function harvest(
	pools: Pools,
	path: string,
	method: string,
	answer: { status: number; body: unknown },
) {
	if (method !== 'post' || answer.status >= 300) return;
	const body = answer.body as Record<string, unknown>;
	for (const [pattern, name] of CREATED) if (pattern.test(path)) add(pools, name, body?.id);
	// A message names its chat: the chats' operations then reach existing chats too.
	if (/\/messages\/[a-z/]+$/.test(path)) add(pools, 'chatId', body?.chatId);
	if (path === '/api/v1/links') add(pools, 'code', body?.code);
}

/**
 * MIME types the fuzz sends: valid ones only. Unchecked ones (an emoji, CRLF) are issue 23 item 3, fixed apart;
 * until then they make later downloads fail.
 */
const MIME_TYPES = [
	'image/png',
	'image/jpeg',
	'application/pdf',
	'audio/ogg',
	'video/mp4',
	'text/plain',
];

/** An existing value for this name, read when the value is drawn (the pools grow as the fuzz runs). */
export function knownValues(pools: Pools, name: string): fc.Arbitrary<unknown> | undefined {
	if (name === 'mimeType') return fc.constantFrom(...MIME_TYPES);
	if (!pools[name]) return undefined;
	return fc.nat().map((index) => {
		const pool = pools[name];
		return pool[index % pool.length];
	});
}
