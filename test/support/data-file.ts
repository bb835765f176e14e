import type { SandboxOptions } from '../../sandbox/server';
import { raw, startTestSandbox, type SandboxKeys } from './sandbox';

/** The data-file tests' sandbox, one run at a time, and the automation events they keep and read back. */

export async function withSandbox<T>(
	options: SandboxOptions,
	run: (keys: SandboxKeys, baseUrl: string) => Promise<T>,
) {
	const sandbox = await startTestSandbox(options);
	try {
		return await run(sandbox.keys as SandboxKeys, sandbox.baseUrl);
	} finally {
		await sandbox.close();
	}
}

export const publish = (baseUrl: string, key: string, name: string) =>
	raw(baseUrl, 'POST', '/api/v1/automation/events', { key, body: { name, payload: {} } });

/** The names of the automation events kept, newest first. */
export async function names(baseUrl: string, key: string): Promise<string[]> {
	const list = await raw(baseUrl, 'GET', '/api/v1/automation/events?limit=100', { key });
	return (list.body as { data: Array<{ name: string }> }).data.map((event) => event.name);
}
