/** What the sandbox's gathering tests share: a sandbox with a connected instance, and its open bursts. */
import type { SandboxOptions } from '../../sandbox/server';
import type { OpenBurstRecord, Store } from '../../sandbox/store/store';
import { startService, type TestService } from './nodes';

export const ANNA = '+14155550181';
export const BEN = '+14155550182';

/** A sandbox with a connected instance, closed after `run`. */
export async function withService<T>(
	options: SandboxOptions,
	run: (service: TestService, instanceId: string) => Promise<T>,
): Promise<T> {
	const service = await startService(options);
	try {
		return await run(service, (await service.connectedInstance('Gather')).id);
	} finally {
		await service.close();
	}
}

/** The open bursts (not the records of the messages they hold). */
export const openBursts = (store: Store) =>
	store.all('bursts').filter((record): record is OpenBurstRecord => 'webhookId' in record);
