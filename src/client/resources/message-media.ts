import { z } from '../zod';

import { Id, named, Timestamp } from '../schemas';

/**
 * The file of a media message, sent or received, as messages describe it; its bytes are served by the
 * messages' `downloadMedia` (`GET /messages/{messageId}/media`).
 */
export const MessageMedia = named(
	'MessageMedia',
	z.looseObject({
		id: Id,
		mimeType: z.string(),
		fileName: z
			.string()
			.describe(
				'The base name only, whoever chose it: no directory (what precedes the last / or \\ is dropped), no control characters, at most 255 characters',
			)
			.nullable()
			.optional(),
		size: z.number().int().min(0).describe('Bytes'),
		sha256: z.string().describe('Hex SHA-256 of the bytes, to check a download against'),
		downloadUrl: z
			.string()
			.describe(
				"In a delivered event only: a URL that answers the file's bytes without an API key (`downloadSignedMedia`) until `downloadUrlExpiresAt`. Each delivery attempt carries a fresh one",
			)
			.optional(),
		downloadUrlExpiresAt: Timestamp.describe('When `downloadUrl` stops working').optional(),
	}),
);
export type MessageMedia = z.output<typeof MessageMedia>;
