// The end-to-end files, listed once: `npm run test:e2e` runs them in n8n 2.x, `npm run test:e2e:n8n1` (with
// MULTICHANNEL_N8N_VERSION=1.123.81) in n8n 1.x. Plain Node.
//   node e2e/run.mjs [n8n1|n8n2] [file.test.mjs …]
// The package is packed once (every stack installs that tarball). SHARED files run one at a time on one stack per
// mode booted once (support/shared-stack.mjs), restarting its n8n or sandbox through this process
// (support/stack-control.mjs), which puts it back as it booted after each file; each OWN file boots the stacks it
// configures or breaks beyond that.
// The shared files (one job per group, SHARED_GROUPS) and the OWN files run LANES at a time. At the end a table gives each file's wall
// time, its boots and the time of its tests.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { buildAndPack } from '../dev/n8n/package-install.mjs';
import { N8N_VERSION } from '../dev/n8n/runtime.mjs';
import { stopOnSignals } from '../dev/stack/processes.mjs';
import { sharedStackVariable, startSharedStack } from './support/shared-stack.mjs';
import { healSharedStack } from './support/stack-control.mjs';

/** Files that need no sandbox options nor n8n at another address: on the shared stacks. */
const SHARED = [
	'tracked-links.test.mjs',
	'campaigns.test.mjs',
	'people.test.mjs',
	'send-and-wait-controls.test.mjs',
	'answer-race.test.mjs',
	'media.test.mjs',
	'replies.test.mjs',
	'routing.test.mjs',
	'gather.test.mjs',
	'ai-agent.test.mjs',
	'editor.test.mjs',
	'editor-run.test.mjs',
	'polls-calls.test.mjs',
	'labels.test.mjs',
	'readme-journey.test.mjs',
	'rerun.test.mjs',
	'exactly-once.test.mjs',
	'send-and-wait.test.mjs',
	'scheduled-crash.test.mjs',
	'batches.test.mjs',
];
/**
 * Files with stacks of their own: stack-cleanup starts one that fails half-way; e2e.test.mjs proves the fresh
 * install (through the contract proxy in 2.x); coexist asserts that nothing else ran; the lifetime files set
 * sandbox options (retries, pings) and move n8n to other addresses.
 */
const OWN = [
	'lifetime.test.mjs',
	'lifetime-queue.test.mjs',
	'e2e.test.mjs',
	'coexist.test.mjs',
	'stack-cleanup.test.mjs',
];
/**
 * How many jobs run at once (E2E_LANES, default 2): the shared files as one job, each OWN file as one. Most of an
 * e2e file's time is waiting (for deliveries, retries, n8n's polls), so two share the 2 cores well.
 */
const LANES = Math.max(1, Number(process.env.E2E_LANES ?? 2));
/**
 * In how many groups the shared files run (E2E_SHARED_GROUPS: 1 or 2), each group one job on stacks of its own. n8n
 * 1.x has one short OWN file, so with one group the second lane waited idle for the shared files.
 */
const SHARED_GROUPS = Number(process.env.E2E_SHARED_GROUPS ?? (process.argv[2] === 'n8n1' ? 2 : 1));
/** Whether a file has a queue-mode block on the shared queue stack. */
const ON_SHARED_QUEUE = new Set([
	'gather.test.mjs',
	'labels.test.mjs',
	'exactly-once.test.mjs',
	'send-and-wait.test.mjs',
	'batches.test.mjs',
]);

/** n8n 1.x: every file but those skipped. */
const N8N1_SKIPPED = {
	'stack-cleanup.test.mjs': 'it starts no n8n process: the same in both lines',
	'exactly-once.test.mjs': 'the exactly-once tests run in n8n 2.x only (README, "Tested on")',
	'lifetime.test.mjs':
		'the lifetime tests run in n8n 2.x only, as the exactly-once tests do; 1.x answers a delivery before its execution exists',
	'lifetime-queue.test.mjs': 'as lifetime.test.mjs, in queue mode',
	'answer-race.test.mjs': 'written for issue 33 and run in n8n 2.x only so far',
	'send-and-wait-controls.test.mjs':
		'written for issue 36 and run in n8n 2.x only so far; Send and Wait itself runs in 1.x (send-and-wait.test.mjs)',
	'coexist.test.mjs': 'not run in n8n 1.x yet (written for 2.x, where a newcomer starts)',
};

const log = (message) => process.stderr.write(`[e2e/run] ${message}\n`);
const seconds = (ms) => Math.round(ms / 100) / 10;

/** The test files' processes running now. */
const running = new Set();

/** Runs one test file with node's test runner; resolves with its counts and wall time. */
function runFile(file, env) {
	const started = Date.now();
	return new Promise((resolve) => {
		const child = spawn(process.execPath, ['--test', '--test-reporter=spec', `e2e/${file}`], {
			env: { ...process.env, ...env },
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		running.add(child);
		child.on('exit', () => running.delete(child));
		const counts = { pass: 0, fail: 0, cancelled: 0, skipped: 0 };
		let pending = '';
		// Its report is printed whole when it ends: with two files at a time, lines would interleave.
		const report = [];
		child.stdout.on('data', (chunk) => {
			report.push(chunk);
			const lines = (pending + chunk).split('\n');
			pending = lines.pop();
			for (const line of lines) {
				const count = /^ℹ (pass|fail|cancelled|skipped) (\d+)$/.exec(line.trim());
				if (count) counts[count[1]] = Number(count[2]);
			}
		});
		child.on('close', (code) => {
			process.stdout.write(`\n# ${file}\n${Buffer.concat(report).toString()}`);
			// A test cancelled (its hook failed, its parent ended) proved nothing: counted as failed.
			const { cancelled, ...rest } = counts;
			resolve({ file, code, ...rest, fail: rest.fail + cancelled, wallMs: Date.now() - started });
		});
	});
}

const n8n1 = process.argv[2] === 'n8n1';
const skipped = n8n1 ? N8N1_SKIPPED : {};
for (const [file, why] of Object.entries(skipped)) log(`skipped in n8n 1.x: ${file}: ${why}`);
// Files named after the line (`node e2e/run.mjs n8n2 media.test.mjs`) run alone, on the stacks they would use.
const only = process.argv.slice(3);
const listed = (files) =>
	files.filter((file) => !(file in skipped) && (only.length === 0 || only.includes(file)));

const work = mkdtempSync(join(tmpdir(), 'multichannel-e2e-run-'));
const bootsFile = join(work, 'boots.jsonl');
writeFileSync(bootsFile, '');
const runStarted = Date.now();
const steps = [];
const results = [];
const shared = [];
// Ended from outside (CI after a failed step, Ctrl-C): the files stop their own stacks (support/harness.mjs), the
// shared ones are stopped here, and a shared stack still booting is killed when this process exits.
stopOnSignals(
	async () => {
		for (const child of running) child.kill('SIGTERM');
		await Promise.allSettled(shared.map(({ stack }) => stack.stop()));
	},
	{ log },
);
let sharedBoots = 0;
let failed = false;
try {
	let since = Date.now();
	// Built here unless E2E_SKIP_BUILD=1 (CI builds once, then runs both n8n lines at once from that build).
	const build = process.env.E2E_SKIP_BUILD !== '1';
	const tarball = await buildAndPack({ outDir: join(work, 'pack'), log, build });
	steps.push([`${build ? 'build and ' : ''}pack the package once`, Date.now() - since]);
	process.env.E2E_TARBALL = tarball;
	const env = { E2E_SKIP_BUILD: '1', E2E_TARBALL: tarball, E2E_BOOTS: bootsFile };

	const sharedFiles = listed(SHARED);
	/**
	 * The shared files split in SHARED_GROUPS, each on stacks of its own: with two, the files with a queue-mode block
	 * (whose stacks boot both modes) and the others (one process only).
	 */
	const sharedGroups = (
		SHARED_GROUPS === 1
			? [sharedFiles]
			: [
					sharedFiles.filter((file) => ON_SHARED_QUEUE.has(file)),
					sharedFiles.filter((file) => !ON_SHARED_QUEUE.has(file)),
				]
	).filter((files) => files.length > 0);
	/** A group of shared files, one job: its stacks booted, its files one at a time, its stacks stopped. */
	const sharedJob = (files, name) => async () => {
		const started = Date.now();
		const modes = files.some((file) => ON_SHARED_QUEUE.has(file)) ? [false, true] : [false];
		const sharedEnv = {};
		const group = [];
		await Promise.all(
			modes.map(async (queue) => {
				const prefix = queue ? 'multichannel-shared-queue-' : 'multichannel-shared-';
				const dir = mkdtempSync(join(tmpdir(), prefix));
				const booted = await startSharedStack({
					dir,
					queue,
					log: (line) => log(`${name}: ${line}`),
				});
				group.push({ dir, ...booted });
				shared.push(group.at(-1));
				sharedEnv[sharedStackVariable(queue)] = booted.descriptor;
			}),
		);
		steps.push([`${name}: boot its stacks (${modes.length})`, Date.now() - started]);
		sharedBoots += modes.length;
		for (const file of files) {
			results.push(await runFile(file, { ...env, ...sharedEnv }));
			for (const { stack, booted } of group)
				await healSharedStack(stack, booted, (line) => log(`${name}, after ${file}: ${line}`));
		}
		const stopping = Date.now();
		for (const entry of group) {
			await entry.control.close();
			await entry.stack.stop();
			// Stopped: the clean-up below only checks that nothing is left, and removes its folder.
			entry.stopped = true;
		}
		steps.push([`${name}: stop its stacks`, Date.now() - stopping]);
	};
	const ownJobs = listed(OWN).map((file) => async () => {
		// e2e.test.mjs runs once, through the contract proxy (dev/contract/proxy.mjs), with its zero-violation check.
		const proxy = file === 'e2e.test.mjs' && !n8n1 ? { MULTICHANNEL_CONTRACT_PROXY: '1' } : {};
		results.push(await runFile(file, { ...env, ...proxy }));
	});
	// LANES jobs at a time, the longest first (OWN is in that order): most of a file's time is waiting.
	const jobs = [
		...sharedGroups.map((files, index) =>
			sharedJob(files, sharedGroups.length === 1 ? 'shared' : `shared ${index + 1}`),
		),
		...ownJobs,
	];
	const lanes = await Promise.allSettled(
		Array.from({ length: LANES }, async () => {
			while (jobs.length > 0) await jobs.shift()();
		}),
	);
	const stopped = lanes.find((lane) => lane.status === 'rejected');
	if (stopped) throw stopped.reason;
} catch (error) {
	failed = true;
	log(`failed: ${error.stack ?? error}`);
} finally {
	for (const { stack, control, stopped } of shared) {
		if (stopped) continue;
		await control.close().catch((error) => log(`close: ${error}`));
		await stack.stop().catch((error) => log(`stop: ${error}`));
	}
	for (const { stack, dir } of shared) {
		for (const service of [stack.sandbox.service, ...stack.n8n.started]) {
			if (service.groupAlive) {
				failed = true;
				log(`a process of the shared stack's ${service.name} is left`);
			}
		}
		if (process.env.E2E_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
	}
}

// The table: per file, its wall time, the stacks it booted (or attached to) and their time, its tests' time.
const boots = readFileSync(bootsFile, 'utf8')
	.split('\n')
	.filter(Boolean)
	.map((line) => JSON.parse(line));
const rows = results.map((result) => {
	const own = boots.filter((boot) => boot.file === result.file);
	const bootMs = own.reduce((sum, boot) => sum + boot.seconds * 1000, 0);
	const kinds = own.map(
		(boot) => `${boot.shared ? 'attach' : 'boot'}${boot.queue ? ' queue' : ''}`,
	);
	return [
		result.file,
		seconds(result.wallMs),
		own.filter((boot) => !boot.shared).length,
		seconds(bootMs),
		seconds(result.wallMs - bootMs),
		`${result.pass} passed, ${result.fail} failed${result.skipped ? `, ${result.skipped} skipped` : ''}`,
		kinds.join(', '),
	];
});
const head = ['file', 'wall s', 'boots', 'boot+attach s', 'tests s', 'result', 'stacks'];
const widths = head.map((title, column) =>
	Math.max(title.length, ...rows.map((row) => String(row[column]).length)),
);
const line = (cells) => cells.map((cell, column) => String(cell).padEnd(widths[column])).join('  ');
console.log(`\n# e2e in n8n ${N8N_VERSION}: ${seconds(Date.now() - runStarted)} s`);
for (const [step, ms] of steps) console.log(`#   ${step}: ${seconds(ms)} s`);
console.log(line(head));
for (const row of rows) console.log(line(row));
const pass = results.reduce((sum, result) => sum + result.pass, 0);
const fail = results.reduce((sum, result) => sum + result.fail, 0);
const bootCount = boots.filter((boot) => !boot.shared).length + sharedBoots;
console.log(`# ${bootCount} stack boots (${sharedBoots} shared)`);
rmSync(work, { recursive: true, force: true });
if (results.some((result) => result.code !== 0)) failed = true;
console.log(`e2e: ${pass} passed, ${fail} failed`);
process.exit(failed ? 1 : 0);
