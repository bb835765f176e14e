// Validates docs/openapi.json (or the file given) against the OpenAPI 3.1 schema with a real validator.
// ESM because the validator is ESM-only; the jest suite runs it as a child process.
import { readFile } from 'node:fs/promises';
import { Validator } from '@seriousme/openapi-schema-validator';

const file = process.argv[2] ?? new URL('../../docs/openapi.json', import.meta.url);
const validator = new Validator();
const result = await validator.validate(JSON.parse(await readFile(file, 'utf8')));
console.log(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? [] }));
process.exit(result.valid ? 0 : 1);
