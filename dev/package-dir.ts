/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- dev code runs in plain Node, never inside n8n */
import path from 'node:path';

/** The package's root folder (where package.json is), for dev code that reads or runs the package. */
export const PACKAGE_DIR = path.resolve(__dirname, '..');
