import { KEY_PREFIXES, type KeyKind } from '../../store/key-kinds';
import { elementById, copyText, el, setError } from './dom';
import { buildCurl, emptyPathParameters } from './curl';
import { keyKind, operationBody, type ExampleBody } from './examples';
import { KIND_LABEL } from './keys';
import {
	METHODS,
	resolve,
	type Endpoint,
	type OpenApiDocument,
	type RequestValues,
	type SchemaObject,
} from './openapi';
import { requestInputs } from './request-inputs';
import { session } from './session';

/**
 * The API reference: every endpoint of the OpenAPI document grouped by tag, with its parameters and a cURL
 * command built with the key pasted on the page and the values typed into the endpoint's fields.
 */

const SCHEME_KIND: Record<string, KeyKind> = {
	workspaceKey: 'workspace',
	shortLinkKey: 'shortLink',
	automationKey: 'automation',
};

export class Reference {
	private document: OpenApiDocument | null = null;
	private endpoints: Endpoint[] = [];

	constructor(private readonly baseUrl: string) {}

	get loaded(): boolean {
		return this.document !== null;
	}

	async load(): Promise<void> {
		try {
			const response = await fetch('/api/v1/openapi.json', {
				headers: { Accept: 'application/json' },
			});
			if (!response.ok) {
				throw new Error(`The OpenAPI document could not be loaded (HTTP ${response.status})`);
			}
			const document = (await response.json()) as OpenApiDocument;
			this.document = document;
			this.endpoints = [];
			for (const [path, item] of Object.entries(document.paths ?? {})) {
				for (const method of METHODS) {
					const operation = item[method];
					if (!operation?.security) continue; // the public short-link redirect takes no key
					const scheme = Object.keys(operation.security[0] ?? {})[0];
					this.endpoints.push({
						id: operation.operationId,
						method: method.toUpperCase(),
						path,
						tag: (operation.tags ?? ['Other'])[0],
						kind: SCHEME_KIND[scheme] ?? null,
						operation,
						parameters: [...(item.parameters ?? []), ...(operation.parameters ?? [])].map(
							(parameter) => resolve(document, parameter),
						),
						values: { path: {}, query: {} },
						open: false,
					});
				}
			}
			this.render();
		} catch (error) {
			setError(
				elementById('reference-error'),
				error instanceof Error ? error.message : String(error),
			);
			elementById('reference-body').textContent = '';
		}
	}

	/** The cURL command of an endpoint by operation id (for the tests: `window.multichannelConsole`). */
	curlFor(operationId: string, key: string, values: Partial<RequestValues> = {}): string | null {
		const endpoint = this.endpoints.find((candidate) => candidate.id === operationId);
		return endpoint && this.document
			? buildCurl(this.document, this.baseUrl, endpoint, key, { path: {}, query: {}, ...values })
			: null;
	}

	/** The example body of every endpoint that takes one, by operation id. */
	exampleBodies(): Record<string, ExampleBody> {
		const bodies: Record<string, ExampleBody> = {};
		for (const endpoint of this.endpoints) {
			const body = this.document && operationBody(this.document, endpoint.operation);
			if (body) bodies[endpoint.id] = body;
		}
		return bodies;
	}

	render(): void {
		const document = this.document;
		if (!document) return;
		const keyInput = elementById<HTMLInputElement>('ref-key');
		const key = keyInput.value.trim();
		const shownKey = keyInput.type === 'password' ? maskKey(key) : key;
		const filter = elementById<HTMLInputElement>('ref-filter').value.trim().toLowerCase();
		const container = elementById('reference-body');
		container.textContent = '';
		const groups: Record<string, Endpoint[]> = {};
		const order = (document.tags ?? []).map((tag) => tag.name);
		for (const endpoint of this.endpoints) {
			const haystack =
				`${endpoint.method} ${endpoint.path} ${endpoint.operation.summary ?? ''} ${endpoint.tag}`.toLowerCase();
			if (filter && !haystack.includes(filter)) continue;
			if (!order.includes(endpoint.tag)) order.push(endpoint.tag);
			(groups[endpoint.tag] ??= []).push(endpoint);
		}
		for (const tagName of order) {
			const endpoints = groups[tagName];
			if (!endpoints) continue;
			const tag = (document.tags ?? []).find((candidate) => candidate.name === tagName);
			const section = el('section', { className: 'tag', 'data-tag': tagName }, [
				el('h3', {}, [
					`${tagName} `,
					el('span', { className: 'muted', text: tag?.description ?? '' }),
				]),
			]);
			for (const endpoint of endpoints)
				section.appendChild(this.renderEndpoint(document, endpoint, key, shownKey));
			container.appendChild(section);
		}
		if (!container.children.length) {
			container.appendChild(
				el('p', { className: 'muted', text: 'No endpoint matches the filter.' }),
			);
		}
	}

	/** Show / Hide: the pasted key in clear, in its field and in the commands, or masked in both. */
	toggleKey(): void {
		const input = elementById<HTMLInputElement>('ref-key');
		const button = elementById('ref-key-show');
		const reveal = input.type === 'password';
		input.type = reveal ? 'text' : 'password';
		button.textContent = reveal ? 'Hide' : 'Show';
		button.setAttribute('aria-pressed', String(reveal));
		this.render();
	}

	/** `key` goes into the copied command; `shownKey` (the key, or its mask) into the one on screen. */
	private renderEndpoint(
		document: OpenApiDocument,
		endpoint: Endpoint,
		key: string,
		shownKey: string,
	): HTMLElement {
		const details = el('details', {
			className: 'op',
			'data-operation-id': endpoint.id,
			open: endpoint.open || undefined,
		});
		details.addEventListener('toggle', () => {
			endpoint.open = details.open;
		});
		const kindNeeded = endpoint.kind;
		const scope = endpoint.operation['x-scope'];
		details.appendChild(
			el('summary', {}, [
				el('span', { className: `method ${endpoint.method.toLowerCase()}`, text: endpoint.method }),
				el('code', { className: 'path', text: endpoint.path }),
				el('span', { className: 'summary', text: endpoint.operation.summary ?? '' }),
				el('span', { className: 'kind' }, [
					kindNeeded
						? el('span', { className: 'badge', text: `${KIND_LABEL[kindNeeded]} key` })
						: null,
					scope ? el('span', { className: 'badge', text: scope }) : null,
				]),
			]),
		);
		const body = el('div', { className: 'body' });
		const table = parameterTable(document, endpoint);
		if (table) body.appendChild(table);
		const pre = el('pre', { className: 'curl' });
		const empty = el('p', { className: 'warn empty-params', role: 'status' });
		let command = '';
		const update = () => {
			command = buildCurl(document, this.baseUrl, endpoint, key, endpoint.values);
			pre.textContent = buildCurl(document, this.baseUrl, endpoint, shownKey, endpoint.values);
			const names = emptyPathParameters(endpoint, endpoint.values);
			setError(
				empty,
				names.length
					? `Required and empty: ${names.join(', ')}. Pick or type ${names.length > 1 ? 'them' : 'it'} above; until then the command has ${names.map((name) => `<${name}>`).join(', ')} in ${names.length > 1 ? 'their places' : 'its place'} and does not work.`
					: '',
			);
		};
		const listingKey = () => key || session.key;
		for (const node of requestInputs(document, endpoint, update, listingKey)) {
			body.appendChild(node);
		}
		body.appendChild(empty);
		const given = key ? keyKind(key) : null;
		if (!key) {
			body.appendChild(
				el('p', {
					className: 'warn',
					text: 'Paste a key above to fill in the Authorization header.',
				}),
			);
		} else if (kindNeeded && given !== kindNeeded) {
			body.appendChild(
				el('p', {
					className: 'warn',
					text: `This endpoint takes a ${KIND_LABEL[kindNeeded].toLowerCase()} key (${KEY_PREFIXES[kindNeeded]}…); the key above would get 403.`,
				}),
			);
		}
		const copy = el('button', {
			type: 'button',
			className: 'secondary small copy',
			text: 'Copy cURL',
		});
		copy.addEventListener('click', () => copyText(command, copy));
		body.appendChild(
			el('div', { className: 'curl-head' }, [
				el('span', { className: 'label', text: 'cURL' }),
				copy,
			]),
		);
		update();
		body.appendChild(pre);
		details.appendChild(body);
		return details;
	}
}

/** A key as the page shows it while masked: the start the key list shows too (at most a third of it), then dots. */
export function maskKey(key: string): string {
	return key ? `${key.slice(0, Math.min(12, Math.floor(key.length / 3)))}••••••••` : '';
}

/** A description's `code` spans as code, the rest as text (never HTML). */
function withCode(text: string): Array<Node | string> {
	return text
		.split('`')
		.map((part, index) => (index % 2 === 1 ? el('code', { text: part }) : part));
}

function parameterTable(document: OpenApiDocument, endpoint: Endpoint): HTMLElement | null {
	const requestBody = endpoint.operation.requestBody;
	if (!endpoint.parameters.length && !requestBody) return null;
	const rows = endpoint.parameters.map((parameter) => {
		const schema = resolve(document, parameter.schema ?? {});
		let type = schema.type ?? (schema.anyOf ? 'one of several' : schema.enum ? 'enum' : '');
		if (schema.enum) type = `${String(schema.type ?? 'string')}: ${schema.enum.join(' | ')}`;
		return el('tr', {}, [
			el('td', { className: 'mono', text: parameter.name }),
			el('td', { text: parameter.in }),
			el('td', { text: parameter.required ? 'required' : 'optional' }),
			el('td', { text: String(type) }),
			el('td', { className: 'muted description' }, withCode(parameter.description ?? '')),
		]);
	});
	if (requestBody?.content) {
		const type = Object.keys(requestBody.content)[0];
		const schema: SchemaObject = requestBody.content[type].schema ?? {};
		const ref = schema.$ref
			? schema.$ref.split('/').pop()
			: schema.allOf?.[0].$ref
				? schema.allOf[0].$ref.split('/').pop()
				: 'object';
		rows.push(
			el('tr', {}, [
				el('td', { className: 'mono', text: 'body' }),
				el('td', { text: type }),
				el('td', { text: 'required' }),
				el('td', { text: ref }),
				el('td', {
					className: 'muted description',
					text:
						type === 'application/json'
							? 'edit the example below'
							: 'example in the cURL command below',
				}),
			]),
		);
	}
	return el('table', { className: 'params' }, [
		el('thead', {}, [
			el(
				'tr',
				{},
				['Name', 'In', '', 'Type', 'Description'].map((heading) => el('th', { text: heading })),
			),
		]),
		el('tbody', {}, rows),
	]);
}
