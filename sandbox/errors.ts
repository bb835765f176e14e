/**
 * Errors in the contract's shape (`{ error: { code, message, details, requestId } }`): thrown by the domain, the
 * handlers and the pipeline alike, and answered by the pipeline (http/pipeline/handler.ts).
 */

export interface ErrorDetail {
	field: string;
	message: string;
}

/** Thrown by handlers and the pipeline; becomes `{ error: { code, message, details, requestId } }`. */
export class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly details: unknown[] = [],
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}
}

export const notFound = (what: string, id: string) =>
	new HttpError(404, 'not_found', `${what} "${id}" was not found in this workspace`);

export const conflict = (code: string, message: string) => new HttpError(409, code, message);

/** A 400 naming every field that failed (`body.to: must be…; query.limit: …`). */
export function validationFailed(details: ErrorDetail[]): HttpError {
	return new HttpError(
		400,
		'validation_failed',
		`The request is invalid: ${details.map((detail) => `${detail.field}: ${detail.message}`).join('; ')}`,
		details,
	);
}

export function errorBody(error: HttpError, requestId: string) {
	return { error: { code: error.code, message: error.message, details: error.details, requestId } };
}
