import { example, operationBody } from './examples';
import type { Endpoint, OpenApiDocument, RequestValues } from './openapi';

/**
 * The ready-to-run cURL command of an endpoint: the values typed on the page (path and query parameters, a
 * JSON body), the key (or a placeholder), an example body where none was typed. Every argument is quoted for
 * a POSIX shell, so whatever was typed reaches the API as it was typed.
 */

export function shellQuote(text: unknown): string {
	return `'${String(text).replace(/'/g, "'\\''")}'`;
}

/** The query string: the values typed; a required parameter left empty gets an example. */
function queryString(document: OpenApiDocument, endpoint: Endpoint, values: RequestValues): string {
	const pairs: string[] = [];
	for (const parameter of endpoint.parameters) {
		if (parameter.in !== 'query') continue;
		let value: unknown = values.query[parameter.name];
		if (!value && parameter.required) {
			value = example(document, parameter.schema ?? {}, parameter.name, 0, 0);
		}
		if (value === undefined || value === '') continue;
		pairs.push(`${encodeURIComponent(parameter.name)}=${encodeURIComponent(String(value))}`);
	}
	return pairs.length ? `?${pairs.join('&')}` : '';
}

export function buildCurl(
	document: OpenApiDocument,
	baseUrl: string,
	endpoint: Endpoint,
	key: string,
	values: RequestValues,
): string {
	// An empty parameter reads as one to fill in (`<instanceId>`), not as a template to expand.
	const path = endpoint.path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
		const value = values.path[name];
		return value ? encodeURIComponent(value) : `<${name}>`;
	});
	const url = `${baseUrl}${path}${queryString(document, endpoint, values)}`;
	const lines = [
		`curl ${endpoint.method === 'GET' ? '' : `-X ${endpoint.method} `}${shellQuote(url)}`,
	];
	lines.push(`  -H ${shellQuote(`Authorization: Bearer ${key || '<API_KEY>'}`)}`);
	lines.push(`  -H ${shellQuote('Accept: application/json')}`);
	const body = operationBody(document, endpoint.operation);
	if (body?.type === 'json') {
		lines.push(`  -H ${shellQuote('Content-Type: application/json')}`);
		lines.push(`  -d ${shellQuote(values.body ?? JSON.stringify(body.value, null, 2))}`);
	} else if (body?.type === 'multipart') {
		for (const [field, value] of Object.entries(body.value)) {
			if (field === 'file') continue;
			const text = typeof value === 'string' ? value : JSON.stringify(value);
			lines.push(`  -F ${shellQuote(`${field}=${text}`)}`);
		}
		lines.push(`  -F ${shellQuote('file=@photo.jpg;type=image/jpeg')}`);
	}
	return lines.join(' \\\n');
}

/** The path parameters still empty: every one is required. */
export function emptyPathParameters(endpoint: Endpoint, values: RequestValues): string[] {
	return endpoint.parameters
		.filter((parameter) => parameter.in === 'path' && !values.path[parameter.name])
		.map((parameter) => parameter.name);
}
