/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code runs in plain Node, never inside n8n */
/**
 * The contract proxy's run fails when it validated too little (issue 33, finding 7): a run with no exchange
 * answered through Prism found no violation, and passed, having checked nothing. A real Prism in front of a
 * sandbox, in a child process (the proxy is an ES module; jest runs CommonJS).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { directUrl, suiteSandbox } from '../support/sandbox';

const suite = suiteSandbox();
const dev = join(__dirname, '..', '..', 'dev', 'contract');

const SCRIPT = `
import { join } from 'node:path';
import { startContractProxy } from ${JSON.stringify(join(dev, 'proxy.mjs'))};
import { writeReport } from ${JSON.stringify(join(dev, 'report.mjs'))};

const dir = process.env.REPORT_DIR;
const proxy = await startContractProxy({ logFile: join(dir, 'prism.log') });
const verdicts = {};
const judged = (name, minValidated) => {
	const { summary, failed, lines } = writeReport(join(dir, name + '.json'), proxy.exchanges, { minValidated });
	verdicts[name] = { validated: summary.validatedByPrism, failed, lines };
};
try {
	const front = await proxy.front(process.env.UPSTREAM);
	const headers = { authorization: 'Bearer ' + process.env.KEY };
	judged('nothing', 1);
	for (let index = 0; index < 3; index++) await (await fetch(front + '/api/v1/models', { headers })).text();
	// Not in the document: it goes around Prism, and validates nothing.
	await (await fetch(front + '/user/api/session', { headers })).text();
	judged('atFloor', 3);
	judged('belowFloor', 4);
} finally {
	await proxy.stop();
}
process.stdout.write(JSON.stringify(verdicts));
`;

it('fails a run below its floor of exchanges validated by Prism, and passes one at it', async () => {
	const dir = mkdtempSync(join(tmpdir(), 'contract-floor-'));
	try {
		const { stdout } = await promisify(execFile)(
			process.execPath,
			['--input-type=module', '--eval', SCRIPT],
			{
				env: {
					...process.env,
					REPORT_DIR: dir,
					UPSTREAM: directUrl(suite.sandbox),
					KEY: suite.keys.workspace,
				},
				timeout: 110_000,
			},
		);
		const verdicts = JSON.parse(stdout) as Record<
			string,
			{ validated: number; failed: boolean; lines: string[] }
		>;
		expect(verdicts.nothing).toMatchObject({ validated: 0, failed: true });
		expect(verdicts.nothing.lines.join('\n')).toContain('below the floor of 1');
		expect(verdicts.atFloor).toEqual({ validated: 3, failed: false, lines: [] });
		expect(verdicts.belowFloor).toMatchObject({ validated: 3, failed: true });
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}, 120_000);
