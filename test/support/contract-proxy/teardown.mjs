// jest's globalTeardown: stops the contract proxy, writes its report and fails the run on any violation.
import { join } from 'node:path';

import { REPORT_DIR, writeReport } from '../../../dev/contract/report.mjs';

export default async function teardown() {
	const started = globalThis.contractProxy;
	if (!started) return;
	started.control.closeAllConnections();
	await new Promise((resolve) => started.control.close(resolve));
	await started.proxy.stop();
	const file = join(REPORT_DIR, 'jest.json');
	const { summary, failed, lines } = writeReport(file, started.proxy.exchanges);
	process.stdout.write(`\ncontract proxy (Prism): ${JSON.stringify(summary)}\nreport: ${file}\n`);
	if (failed)
		throw new Error(`the contract proxy found ${lines.length} violation(s):\n${lines.join('\n')}`);
}
