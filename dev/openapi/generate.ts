/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, no-console -- a build script, never inside n8n */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { buildOpenApiDocument } from '../../src/openapi/document';

export const OPENAPI_PATH = join(__dirname, '..', '..', 'docs', 'openapi.json');

export function renderOpenApi(): string {
	return `${JSON.stringify(buildOpenApiDocument(), null, '\t')}\n`;
}

if (require.main === module) {
	writeFileSync(OPENAPI_PATH, renderOpenApi());
	console.log(`Wrote ${OPENAPI_PATH}`);
}
