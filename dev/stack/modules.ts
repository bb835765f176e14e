/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- dev code runs in plain Node, never inside n8n */
import path from 'node:path';

/**
 * The plain-JavaScript stack (dev/stack/stack.mjs, dev/n8n/runtime.mjs) as TypeScript code sees it: the part the
 * bench and the screenshot use. ES modules, loaded from CommonJS through `require` (Node ≥ 20.19).
 */
export interface N8nClient {
	api(method: string, path: string, body?: unknown, expect?: number): Promise<unknown>;
	listAll(path: string): Promise<unknown[]>;
}
export interface Service {
	child: { pid: number };
}
export interface ImportedWorkflow {
	file: string;
	id: string;
}
export interface Stack {
	n8n: {
		url: string;
		/** Where production webhooks are served: n8n, or the webhook processes' balancer in queue mode. */
		webhookUrl: string;
		client: N8nClient;
		services: Service[];
		/** Stops n8n's processes and starts them again (with the environment of the moment). */
		restart(): Promise<void>;
	};
	sandbox: { baseUrl: string; keys: { workspace: string; shortLink: string; automation: string } };
	credentials: Record<string, { id: string; name: string }>;
	examples: { imported: ImportedWorkflow[]; kept: ImportedWorkflow[]; skipped: unknown[] };
	/** Set when n8n runs in queue mode; PostgreSQL's data may live outside the stack's folder. */
	queue?: { postgres?: { dataDir?: string }; n8n?: { webhooks?: Service[] } };
	stop(): Promise<void>;
}
export interface StackModule {
	OWNER: { email: string; password: string };
	startHeadlessStack(options: {
		dir: string;
		log: (text: string) => void;
		queue?: boolean;
		sandboxArgs?: string[];
	}): Promise<Stack>;
	sandboxCall(
		baseUrl: string,
		key: string,
		method: string,
		path: string,
		body?: unknown,
	): Promise<unknown>;
	collectPages(fetchPage: (cursor?: string) => Promise<unknown>): Promise<unknown[]>;
}
export interface RuntimeModule {
	REPO: string;
	N8N_VERSION: string;
	runtimeReady(): boolean;
}

const DEV_DIR = path.resolve(__dirname, '..');

async function devModule<T>(file: string): Promise<T> {
	return (await import(path.join(DEV_DIR, file))) as T;
}

export const stackModule = () => devModule<StackModule>('stack/stack.mjs');
export const runtimeModule = () => devModule<RuntimeModule>('n8n/runtime.mjs');
