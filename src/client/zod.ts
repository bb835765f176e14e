/**
 * The one place shipped code loads zod. At run time zod is n8n's own copy, and its `zod/v4` API exists from
 * zod 3.25 on, which n8n ships from 1.100. On an older n8n, Node's "Package subpath './v4' is not defined by
 * exports" is all n8n would log; this check, evaluated before the re-export below loads the module, names the
 * n8n version needed instead. Every other file imports `z` from here (a test checks it).
 */

export const MINIMUM_N8N_VERSION = '1.100.0';

export const OLD_N8N_MESSAGE =
	`n8n-nodes-multichannel needs n8n ${MINIMUM_N8N_VERSION} or newer: this n8n's zod has no 'zod/v4' ` +
	'(added in zod 3.25, which n8n ships from 1.100). Update n8n, then restart it.';

// The module's own require (compiled to CommonJS); declared here so that programs without Node's types, such as the
// console's browser script that reaches this file through shared constants, still type-check.
declare const require: (id: string) => unknown;

/** Whether n8n's zod lacks the v4 API: zod before 3.25 does not export the subpath, an n8n without zod has none. */
function zodV4Missing(): boolean {
	try {
		// Only require() can try a load; n8n's scanner allows zod.
		require('zod/v4');
		return false;
	} catch (error) {
		const code = (error as { code?: string }).code;
		// Any other failure is left to the re-export below, which meets it again and throws it as it is.
		return code === 'ERR_PACKAGE_PATH_NOT_EXPORTED' || code === 'MODULE_NOT_FOUND';
	}
}

if (zodV4Missing()) throw new Error(OLD_N8N_MESSAGE);

export { z } from 'zod/v4';
