import { api, eachOperation, type KeyKind } from '../../src/client/api';
import { API_PREFIX, type Operation } from '../../src/client/operation';
import type { SandboxCore } from '../core';
import { handlers } from './handlers';
import { HttpError } from '../errors';
import type { KeyScope } from '../store/key-kinds';
import type { UploadedFile } from './multipart';
import { sandboxHandlers, sandboxOperations } from './handlers/sandbox-api';

/**
 * The route table, derived from the contract: one route per operation of `api` (at `/api/v1` + its path),
 * plus the sandbox-only operations. Nothing about a path, a method or a schema is written here again.
 */

export { API_PREFIX };

/** What the pipeline hands a handler once the input is validated. */
export interface RouteContext {
	core: SandboxCore;
	workspaceId: string;
	/** The scopes of the caller's key; none for a signed call. */
	scopes: readonly KeyScope[];
	params: Record<string, string>;
	query: Record<string, unknown>;
	body: unknown;
	file: UploadedFile | undefined;
}

export interface Route {
	/** `workspace.instances.create`, `sandbox.instances.scan`... */
	id: string;
	keyKind: KeyKind;
	operation: Operation;
	/** The full path, with `{name}` placeholders. */
	path: string;
	pattern: RegExp;
	paramNames: string[];
	handle: (context: RouteContext) => unknown;
}

function route(
	id: string,
	keyKind: KeyKind,
	operation: Operation,
	path: string,
	handle: unknown,
): Route {
	const paramNames: string[] = [];
	const source = path
		.split('/')
		.map((segment) => {
			const param = /^\{(\w+)\}$/.exec(segment);
			if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
			paramNames.push(param[1]);
			return '([^/]+)';
		})
		.join('/');
	// Each handler's context is typed from its own operation; the pipeline validated the input against
	// that same operation, so handing it on untyped is sound.
	return {
		id,
		keyKind,
		operation,
		path,
		pattern: new RegExp(`^${source}$`),
		paramNames,
		handle: handle as Route['handle'],
	};
}

export function buildRoutes(): Route[] {
	const routes: Route[] = [];
	for (const { keyKind, resource, name, operation } of eachOperation(api)) {
		const handle = (handlers[keyKind] as Record<string, Record<string, unknown>>)[resource][name];
		routes.push(
			route(
				`${keyKind}.${resource}.${name}`,
				keyKind,
				operation,
				`${API_PREFIX}${operation.path}`,
				handle,
			),
		);
	}
	for (const [name, operation] of Object.entries(sandboxOperations)) {
		routes.push(
			route(
				`sandbox.instances.${name}`,
				'workspace',
				operation,
				operation.path,
				sandboxHandlers[name as keyof typeof sandboxHandlers],
			),
		);
	}
	// Literal segments win over parameters: `/contacts/check` before `/contacts/{contactId}`.
	return routes.sort((a, b) => a.paramNames.length - b.paramNames.length);
}

export type RouteMatch =
	| { route: Route; params: Record<string, string> }
	| { route?: undefined; allowedMethods: string[] };

/** The route for a method and path; when only the method is wrong, the methods that path allows. */
export function matchRoute(routes: Route[], method: string, path: string): RouteMatch | undefined {
	const allowedMethods: string[] = [];
	for (const candidate of routes) {
		const match = candidate.pattern.exec(path);
		if (!match) continue;
		if (candidate.operation.method !== method) {
			allowedMethods.push(candidate.operation.method);
			continue;
		}
		const params: Record<string, string> = {};
		candidate.paramNames.forEach((name, index) => (params[name] = match[index + 1]));
		return { route: candidate, params };
	}
	return allowedMethods.length > 0 ? { allowedMethods: allowedMethods.sort() } : undefined;
}

/** The route for a request: 404 when no path matches, 405 (with `Allow`) when only the method is wrong. */
export function routeFor(
	routes: Route[],
	method: string,
	path: string,
): { route: Route; params: Record<string, string> } {
	const match = matchRoute(routes, method, path);
	if (!match) throw new HttpError(404, 'not_found', `No endpoint ${method} ${path}`);
	if (!match.route) {
		throw new HttpError(405, 'method_not_allowed', `${path} does not take ${method}`, [], {
			Allow: match.allowedMethods.join(', '),
		});
	}
	return match;
}
