// The sandbox as a process of the stack, and the connected instance the examples send from. Plain Node (never
// shipped).
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { readJson, REPO, writeSecretJson } from '../n8n/runtime.mjs';
import { sandboxCall } from './n8n-api.mjs';
import { portInUse, Service } from './processes.mjs';

const SANDBOX_MAIN = join(REPO, 'node_modules', '.cache', 'sandbox', 'main.js');

/** The sandbox instance the examples send from (taken through connect → scan on the first start). */
const DEMO_INSTANCE = { name: 'Demo phone', phoneNumber: '+14155550100' };

/**
 * The group of the demo instance that the README's first journey writes in (the auto-reply example answers groups:
 * a person's 1:1 chat is the AI agent's and receive-files'); its first member is the README's number.
 */
const DEMO_GROUP = { subject: 'Demo group', participants: ['+14155550123', '+14155550124'] };

/**
 * Starts the sandbox (its bundle, `npm run build:sandbox`) as a process with a data file. Its keys are printed on the first start only; they are kept in
 * `keysFile` (mode 0600) so that later starts can still use them.
 */
export async function startSandboxProcess({ dataFile, keysFile, port, logFile, log, args = [] }) {
	if (await portInUse(port))
		throw new Error(`port ${port} is in use: is another sandbox or \`npm start\` running?`);
	let keys = readJson(keysFile, undefined);
	if (existsSync(dataFile) && !keys) {
		throw new Error(
			`${dataFile} exists but the keys printed on its first start were not kept in ${keysFile}; delete the data file to start afresh`,
		);
	}
	if (!existsSync(dataFile)) keys = undefined;
	const service = new Service(
		'sandbox',
		process.execPath,
		[SANDBOX_MAIN, '--port', String(port), '--data-file', dataFile, ...args],
		{
			cwd: REPO,
			env: process.env,
			logFile,
		},
	);
	const [, baseUrl] = await service.waitForOutput(/listening on (http:\/\/\S+)/, 30_000);
	if (/A new workspace was created/.test(service.output)) {
		await service.waitForOutput(/Automation[^\n]*: mca_\S+/, 5_000);
		const find = (prefix) => new RegExp(`(${prefix}_[A-Za-z0-9_-]+)`).exec(service.output)?.[1];
		keys = { workspace: find('mcw'), shortLink: find('mcl'), automation: find('mca') };
		if (!keys.workspace || !keys.shortLink || !keys.automation) {
			await service.stop();
			throw new Error(`could not read the sandbox's keys from its output:\n${service.output}`);
		}
		writeSecretJson(keysFile, keys);
	}
	log(`sandbox up at ${baseUrl} (state in ${dataFile})`);
	return { service, baseUrl, keys };
}

/**
 * A connected sandbox instance to send from: the existing one of that name ("Demo phone" unless `wanted` names
 * another), or a new one taken through connect → scan.
 */
export async function ensureDemoInstance(baseUrl, workspaceKey, wanted = DEMO_INSTANCE) {
	const list = await sandboxCall(baseUrl, workspaceKey, 'GET', '/api/v1/instances?limit=100');
	let instance = list.data.find((candidate) => candidate.name === wanted.name);
	if (!instance) {
		instance = await sandboxCall(baseUrl, workspaceKey, 'POST', '/api/v1/instances', {
			name: wanted.name,
		});
	}
	if (instance.status !== 'connected') {
		await sandboxCall(baseUrl, workspaceKey, 'POST', `/api/v1/instances/${instance.id}/connect`, {
			method: 'qr',
		});
		instance = await sandboxCall(
			baseUrl,
			workspaceKey,
			'POST',
			`/sandbox/instances/${instance.id}/scan`,
			{
				phoneNumber: wanted.phoneNumber,
			},
		);
	}
	return instance;
}

/** The demo instance's group ("Demo group"): the existing one of that subject, or a new one. */
export async function ensureDemoGroup(baseUrl, workspaceKey, instance, wanted = DEMO_GROUP) {
	const groups = `/api/v1/instances/${instance.id}/groups`;
	const list = await sandboxCall(baseUrl, workspaceKey, 'GET', `${groups}?limit=100`);
	return (
		list.data.find((candidate) => candidate.subject === wanted.subject) ??
		(await sandboxCall(baseUrl, workspaceKey, 'POST', groups, wanted))
	);
}
