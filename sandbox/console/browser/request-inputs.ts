import { el, setError } from './dom';
import { operationBody } from './examples';
import { idSuggestions } from './id-suggestions';
import { resolve, type Endpoint, type OpenApiDocument } from './openapi';

/**
 * The fields of an endpoint's cURL builder: one per path and query parameter, and its JSON body, prefilled
 * with the example its schema gives. What is typed is kept on the endpoint, so that a re-render of the
 * reference (a key pasted, a filter typed) keeps it.
 */
export function requestInputs(
	document: OpenApiDocument,
	endpoint: Endpoint,
	changed: () => void,
	/** The key the ids a path parameter offers are listed with. */
	listingKey: () => string | null,
): HTMLElement[] {
	const nodes: HTMLElement[] = [];
	const parameters = endpoint.parameters.filter(
		(parameter) => parameter.in === 'path' || parameter.in === 'query',
	);
	if (parameters.length) {
		const box = el('div', { className: 'request-inputs' });
		for (const parameter of parameters) {
			const values = parameter.in === 'path' ? endpoint.values.path : endpoint.values.query;
			const schema = resolve(document, parameter.schema ?? {});
			const input = el('input', {
				type: 'text',
				'data-param': parameter.name,
				'data-in': parameter.in,
				placeholder: schema.enum
					? schema.enum.join(' | ')
					: parameter.required
						? 'required'
						: 'optional',
				spellcheck: 'false',
			});
			const ids =
				parameter.in === 'path'
					? idSuggestions(document, endpoint, parameter.name, input, listingKey)
					: null;
			input.value = values[parameter.name] ?? '';
			input.addEventListener('input', () => {
				values[parameter.name] = input.value.trim();
				changed();
			});
			box.appendChild(
				el('label', {}, [
					el('span', { className: 'mono', text: parameter.name }),
					el('span', { className: 'muted', text: ` ${parameter.in}` }),
					input,
					ids,
				]),
			);
		}
		nodes.push(box);
	}
	const body = operationBody(document, endpoint.operation);
	if (body?.type === 'json') {
		const area = el('textarea', {
			className: 'body-input',
			'data-body': true,
			spellcheck: 'false',
		});
		area.value = endpoint.values.body ?? JSON.stringify(body.value, null, 2);
		area.rows = Math.min(14, area.value.split('\n').length + 1);
		const problem = el('p', { className: 'error', role: 'status' });
		const check = () => {
			try {
				JSON.parse(area.value);
				setError(problem, '');
			} catch (error) {
				setError(
					problem,
					`The body is not JSON (${(error as Error).message}); it is sent as typed.`,
				);
			}
		};
		area.addEventListener('input', () => {
			endpoint.values.body = area.value;
			check();
			changed();
		});
		check();
		nodes.push(el('span', { className: 'label', text: 'JSON body' }), area, problem);
	}
	return nodes;
}
