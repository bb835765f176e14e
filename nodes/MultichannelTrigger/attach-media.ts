import type {
	IBinaryData,
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	IWebhookFunctions,
} from 'n8n-workflow';

import {
	api,
	ApiError,
	GatheredMessages,
	isGathered,
	type EventEnvelope,
	type WorkspaceClient,
} from '../../src/client';
import type { MessageMedia } from '../../src/client/resources/message-media';
import { Message } from '../../src/client/resources/messages';
import { z } from '../../src/client/zod';
import { workspaceConnection } from '../shared/connections';
import type { AttachedOutput, ChosenOptions, ServiceAccess } from '../shared/trigger';
import { toNodeError } from '../shared/errors';
import {
	downloadMessageFile,
	downloadSignedMessageFile,
	signedMediaToken,
	type MessageFile,
} from '../shared/message-files';
import { sizeInWords } from '../shared/words';

/**
 * The trigger's Download Media option: the file of a received message arrives as binary data on the event's
 * item, downloaded in `webhook()` after the event is claimed and before the workflow starts: at the signed URL
 * the event carries when there is one (no credential read), with the key otherwise. A file over the
 * size cap, or one that cannot be downloaded, is not attached: the item keeps the file's description and says
 * why (`mediaNotAttached`); the event still runs. A gathered event's files go into `data`, `data_1` … in the order
 * of its messages.
 */

/** The binary field the file arrives in, as in n8n's own triggers that receive files. */
export const MEDIA_FIELD = 'data';
const DEFAULT_MAX_MB = 16;
/**
 * One attempt, 5 s at most and never past the delivery's deadline, which the claim before it shares
 * (`ServiceAccess.deadline`): the service waits 10 s for the trigger's answer. A file that takes longer is
 * described, not attached, and the event still runs.
 */
const DOWNLOAD_TIMEOUT_MS = 5_000;
/**
 * A gathered event's files downloaded at once: up to 50 files of up to 16 MB each are not all fetched (and held
 * in memory) together inside one webhook call; four at a time still overlap the service's latency.
 */
const PARALLEL_DOWNLOADS = 4;

export const mediaOptions: INodeProperties[] = [
	{
		displayName: 'Download Media',
		name: 'downloadMedia',
		type: 'boolean',
		default: false,
		// Shown where it can apply: files come with received messages.
		displayOptions: { show: { '/events': ['message.received', '*'] } },
		description: `Whether a received image, voice note, video or document arrives as a file (binary field "${MEDIA_FIELD}"; gathered messages: "${MEDIA_FIELD}", "${MEDIA_FIELD}_1" … in order, each message naming its field in "binaryField") before the workflow starts; a file that is not attached is described, with the reason in "mediaNotAttached"`,
	},
	{
		displayName: 'Max File Size (MB)',
		name: 'maxFileSizeMb',
		type: 'number',
		default: DEFAULT_MAX_MB,
		displayOptions: { show: { '/events': ['message.received', '*'], downloadMedia: [true] } },
		typeOptions: { minValue: 0, numberPrecision: 2 },
		description:
			'With Download Media: larger files are not downloaded; the item carries their description and says why',
	},
];

const NotAttached = z
	.string()
	.optional()
	.describe(
		'With Download Media: why the file of the message is not attached (over Max File Size, or not downloaded)',
	);

/** What Download Media adds to the output, for the trigger's output schema. */
export const mediaOutput: AttachedOutput = {
	fields: z.object({ mediaNotAttached: NotAttached }),
	data: {
		'message.received': z.union([
			Message,
			GatheredMessages.extend({
				messages: z
					.array(
						Message.extend({
							binaryField: z
								.string()
								.optional()
								.describe(
									`With Download Media: the binary field its file is in ("${MEDIA_FIELD}", "${MEDIA_FIELD}_1" … in the order of the messages)`,
								),
							mediaNotAttached: NotAttached,
						}),
					)
					.describe(GatheredMessages.shape.messages.description ?? ''),
			}),
		]),
	},
};

function mediaOf(message: IDataObject): MessageMedia | undefined {
	const media = message.media as MessageMedia | null | undefined;
	return media && typeof media.id === 'string' ? media : undefined;
}

/** The binary field of the `index`-th file of an item: `data`, then `data_1`, `data_2` … */
export function mediaField(index: number): string {
	return index === 0 ? MEDIA_FIELD : `${MEDIA_FIELD}_${index}`;
}

/**
 * The trigger's `attach`: the received message's file, when the option asks for it; for a gathered event, the
 * file of each of its messages (`PARALLEL_DOWNLOADS` at a time), each message naming the field its file is in
 * (`binaryField`) or why it has none (`mediaNotAttached`).
 */
export async function attachMedia(
	context: IWebhookFunctions,
	event: EventEnvelope,
	item: INodeExecutionData,
	access: ServiceAccess<WorkspaceClient>,
	options: ChosenOptions,
): Promise<void> {
	if (event.type !== 'message.received') return;
	if (options.downloadMedia !== true) return;
	const maxMb = Number(options.maxFileSizeMb ?? DEFAULT_MAX_MB);
	const data = event.data as IDataObject;
	if (!isGathered(data)) {
		const media = mediaOf(data);
		if (!media) return;
		const file = await fileOf(context, String(data.id), media, maxMb, access);
		if ('reason' in file) item.json.mediaNotAttached = file.reason;
		else item.binary = { [MEDIA_FIELD]: file.binary };
		return;
	}
	const withFiles = (data.messages as IDataObject[])
		.map((message) => ({ message, media: mediaOf(message) }))
		.filter((entry): entry is { message: IDataObject; media: MessageMedia } => !!entry.media);
	const files = await inTurns(
		withFiles,
		async ({ message, media }) => await fileOf(context, String(message.id), media, maxMb, access),
	);
	const binary: Record<string, IBinaryData> = {};
	files.forEach((file, index) => {
		const { message } = withFiles[index];
		if ('reason' in file) {
			message.mediaNotAttached = file.reason;
			return;
		}
		const field = mediaField(Object.keys(binary).length);
		binary[field] = file.binary;
		message.binaryField = field;
	});
	if (Object.keys(binary).length > 0) item.binary = binary;
}

/** `work` for each entry, at most `PARALLEL_DOWNLOADS` at a time; the results in the entries' order. */
async function inTurns<T, R>(entries: T[], work: (entry: T) => Promise<R>): Promise<R[]> {
	const results: R[] = [];
	let next = 0;
	const worker = async () => {
		while (next < entries.length) {
			const index = next++;
			results[index] = await work(entries[index]);
		}
	};
	await Promise.all(Array.from({ length: Math.min(PARALLEL_DOWNLOADS, entries.length) }, worker));
	return results;
}

/** One message's file as n8n binary data, or why it is not attached (never thrown: the event still runs). */
async function fileOf(
	context: IWebhookFunctions,
	messageId: string,
	media: MessageMedia,
	maxMb: number,
	access: ServiceAccess<WorkspaceClient>,
): Promise<{ binary: IBinaryData } | { reason: string }> {
	const maxBytes = Number.isFinite(maxMb) && maxMb >= 0 ? maxMb * 1024 * 1024 : Infinity;
	const notAttached = (reason: string) => {
		context.logger.info(
			`${context.getNode().name}: the file of message ${messageId} was not attached: ${reason}`,
		);
		return { reason };
	};
	if (media.size > maxBytes) {
		return notAttached(`the file is ${sizeInWords(media.size)}, over Max File Size (${maxMb} MB)`);
	}
	const token = access.unauthenticated ? signedMediaToken(media.downloadUrl) : undefined;
	// The signed URL is a capability too: kept out of any message, like the key.
	let known: { secrets: string[]; serviceUrl?: string } = {
		secrets: token ? [token] : [],
		serviceUrl: access.serviceUrl,
	};
	const options = { timeoutMs: DOWNLOAD_TIMEOUT_MS, maxRetries: 0, deadline: access.deadline };
	try {
		let file: MessageFile | undefined;
		if (token && access.unauthenticated) {
			file = await downloadSignedMessageFile(
				access.unauthenticated,
				token,
				messageId,
				media,
				options,
			).catch((error: unknown) =>
				// Expired (a delivery that waited long): the key still can. Anything else is the answer.
				error instanceof ApiError && error.status === 401 ? undefined : Promise.reject(error),
			);
		}
		if (!file) {
			const connection = await access.keyed();
			known = {
				secrets: [...known.secrets, ...connection.secrets],
				serviceUrl: connection.serviceUrl,
			};
			file = await downloadMessageFile(connection.client, messageId, media, options);
		}
		if (file.size > maxBytes) {
			return notAttached(`the file is ${sizeInWords(file.size)}, over Max File Size (${maxMb} MB)`);
		}
		return {
			binary: await context.helpers.prepareBinaryData(file.data, file.fileName, file.mimeType),
		};
	} catch (error) {
		const mapped = toNodeError(context.getNode(), error, {
			keyKind: workspaceConnection.keyKind,
			scope: api.workspace.messages.downloadMedia.scope,
			noun: 'file',
			secrets: known.secrets,
			serviceUrl: known.serviceUrl,
		});
		return notAttached(`it could not be downloaded: ${mapped.message}`);
	}
}
