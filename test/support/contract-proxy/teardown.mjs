// jest's globalTeardown: stops the contract proxy, writes its report and fails the run on any violation, or when
// too few exchanges were validated (dev/contract/report.mjs, MIN_VALIDATED).
import { join } from 'node:path';

import { minValidated, REPORT_DIR, writeReport } from '../../../dev/contract/report.mjs';

export default async function teardown() {
	const started = globalThis.contractProxy;
	if (!started) return;
	started.control.closeAllConnections();
	await new Promise((resolve) => started.control.close(resolve));
	await started.proxy.stop();
	const file = join(REPORT_DIR, 'jest.json');
	const { summary, failed, lines } = writeReport(file, started.proxy.exchanges, {
		minValidated: minValidated('jest'),
	});
	process.stdout.write(`\ncontract proxy (Prism): ${JSON.stringify(summary)}\nreport: ${file}\n`);
	if (failed) throw new Error(`the contract proxy's run fails:\n${lines.join('\n')}`);
}
