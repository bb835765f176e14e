// jest's globalSetup: with MULTICHANNEL_CONTRACT_PROXY=1 (`npm run test:contract`), starts the contract proxy
// (dev/contract/proxy.mjs) in jest's main process for the whole run, and a control address where the test sandboxes
// of every worker ask for a front (test/support/sandbox.ts, startTestSandbox). Otherwise it does nothing.
import { createServer } from 'node:http';
import { join } from 'node:path';

import { startContractProxy } from '../../../dev/contract/proxy.mjs';
import { REPORT_DIR } from '../../../dev/contract/report.mjs';

export default async function setup() {
	if (process.env.MULTICHANNEL_CONTRACT_PROXY !== '1') return;
	const proxy = await startContractProxy({ logFile: join(REPORT_DIR, 'prism-jest.log') });
	// POST {"upstream": "<a sandbox's base URL>"} → {"url": "<its front>"}
	const control = createServer((req, res) => {
		let text = '';
		req.on('data', (chunk) => (text += chunk));
		req.on('end', () => {
			proxy.front(JSON.parse(text).upstream).then(
				(url) =>
					res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url })),
				(error) => res.writeHead(500).end(error.message),
			);
		});
	});
	await new Promise((resolve) => control.listen(0, '127.0.0.1', resolve));
	process.env.MULTICHANNEL_CONTRACT_PROXY_CONTROL = `http://127.0.0.1:${control.address().port}`;
	globalThis.contractProxy = { proxy, control };
}
