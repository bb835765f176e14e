import { HttpError } from '../../errors';
import type { Route } from '../routes';

/**
 * The sandbox checks its own answers against the contract's response schema, so a drift shows at once:
 * an answer outside it is logged and becomes a 500.
 */
export function checkedAnswer(
	route: Route,
	result: unknown,
	log: (message: string) => void,
): unknown {
	const { operation } = route;
	if (operation.binary) {
		const file = result as { data?: unknown; mimeType?: unknown } | undefined;
		if (Buffer.isBuffer(file?.data) && typeof file?.mimeType === 'string') return result;
		log(`sandbox: ${route.id} answered something other than a file`);
		throw new HttpError(
			500,
			'internal_error',
			`The sandbox's answer to ${route.id} broke the contract`,
		);
	}
	if (!operation.response || operation.status === 204) return undefined;
	const checked = operation.response.safeParse(result);
	if (!checked.success) {
		log(`sandbox: ${route.id} answered outside its response schema: ${checked.error.message}`);
		throw new HttpError(
			500,
			'internal_error',
			`The sandbox's answer to ${route.id} broke the contract`,
		);
	}
	return result;
}
