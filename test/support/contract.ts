import { buildOpenApiDocument } from '../../src/openapi/document';
import { jsonSchemaValidator, type SchemaCheck } from './sandbox';

/**
 * The OpenAPI document made strict, for the sandbox's contract tests: every object schema with `properties`
 * gets them all as `required`, so that every field the document describes must be in an answer.
 */

type JsonObject = Record<string, unknown>;

/**
 * Fields the sandbox may leave out even so: a webhook's description when none was given; what only some
 * messages have (a file, tracked links, a tap's reply, an edit, an answer taken, a scheduled send's times, mentions) and the tracking of tracked links only; a file's
 * signed URL, which only delivered events carry.
 */
const MAY_BE_ABSENT: Record<string, string[]> = {
	Message: [
		'media',
		'trackedLinks',
		'reply',
		'editedAt',
		// Only a message the contact deleted.
		'deletedAt',
		'answeredQuestion',
		// Only scheduled sends have these.
		'sendAt',
		'sentAt',
		'late',
		'cancelledAt',
		// Only texts and captions that mention someone, and received messages, have these.
		'mentions',
		'mentionEveryone',
		'mentionsMe',
		// Only received messages, from a person who shows their number or has a username.
		'phone',
		'username',
		// Only message events of a chat handed over to a person, and messages from the business's own phone.
		'handedOver',
		'fromBusinessPhone',
	],
	// Only chat.handed_back says why.
	HandOver: ['reason'],
	// Only a person who has a username.
	Contact: ['username'],
	Chat: ['username'],
	ChatRead: ['username'],
	MessageMedia: ['downloadUrl', 'downloadUrlExpiresAt'],
	// Only registrations that name who may answer, or what to do after the answer.
	AnswerRegistration: ['allowedToAnswer', 'afterAnswer'],
	AnsweredQuestion: ['refused'],
	Link: ['messageId', 'recipient'],
	Click: ['messageId', 'recipient'],
	// A messaging webhook never batches (it gathers), so it answers without `batch`.
	MessagingWebhook: ['description', 'batch'],
	LinkWebhook: ['description'],
	AutomationWebhook: ['description'],
	MessagingWebhookWithSecret: ['description', 'batch'],
	LinkWebhookWithSecret: ['description'],
	AutomationWebhookWithSecret: ['description'],
};

/** Every object schema with `properties` gets them all as `required`. */
function requireAll(node: unknown, absent: string[] = []): unknown {
	if (Array.isArray(node)) return node.map((item) => requireAll(item));
	if (!node || typeof node !== 'object') return node;
	const result: JsonObject = {};
	for (const [key, value] of Object.entries(node))
		result[key] = key === 'properties' ? mapValues(value as JsonObject) : requireAll(value);
	if (result.properties)
		result.required = Object.keys(result.properties as JsonObject).filter(
			(name) => !absent.includes(name),
		);
	return result;
}

function mapValues(properties: JsonObject): JsonObject {
	return Object.fromEntries(
		Object.entries(properties).map(([name, value]) => [name, requireAll(value)]),
	);
}

const document = buildOpenApiDocument() as {
	paths: Record<string, Record<string, JsonObject>>;
	components: JsonObject;
};
const schemas = (document.components.schemas ?? {}) as Record<string, JsonObject>;
const strictComponents = {
	...document.components,
	schemas: Object.fromEntries(
		Object.entries(schemas).map(([name, schema]) => [
			name,
			requireAll(schema, MAY_BE_ABSENT[name]),
		]),
	),
};

const validators = new Map<string, SchemaCheck>();

/** The strict check of an operation's JSON answer with this status; undefined when the document has none. */
export function documentValidator(
	path: string,
	method: string,
	status: number,
): SchemaCheck | undefined {
	const key = `${method} ${path} ${status}`;
	if (!validators.has(key)) {
		const response = document.paths[path]?.[method.toLowerCase()]?.responses as Record<
			string,
			JsonObject
		>;
		const content = response?.[String(status)]?.content as
			| Record<string, { schema: JsonObject }>
			| undefined;
		const schema = content?.['application/json']?.schema;
		if (!schema) return undefined;
		validators.set(key, jsonSchemaValidator({ ...schema, components: strictComponents }));
	}
	return validators.get(key);
}

/** The strict check of an error answer's body. */
export const errorValidator = jsonSchemaValidator({
	$ref: '#/components/schemas/Error',
	components: strictComponents,
});
