/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the sandbox runs in plain Node, never inside n8n */
import { parseArgs } from 'node:util';

import { KEY_KIND_TITLES } from '../src/client/api';
import { KEY_KINDS, MANAGE_KEYS } from './store/key-kinds';
import { startSandbox, type SandboxOptions } from './server';

/**
 * `npm run sandbox`: starts the sandbox and prints its base URL and, on the first start with a given data
 * file, the seeded workspace's three keys (the only time they are shown).
 */

const USAGE = `Usage: npm run sandbox -- [options]

  --port N                 port to listen on (env SANDBOX_PORT; default 8787, 0 = any free port)
  --host HOST              address to listen on (env SANDBOX_HOST; default 127.0.0.1)
  --data-file PATH         where state is kept across restarts (env SANDBOX_DATA_FILE;
                           default .sandbox-data/state.json)
  --memory                 keep state in memory only
  --public-url URL         base URL to announce, e.g. behind a proxy (env SANDBOX_PUBLIC_URL)
  --rate-limit N           requests per key per minute (default 600; 0 = no limit)
  --latency-ms N           fixed delay added to every API request
  --fault-429 SHARE        share (0..1) of API requests answered 429
  --fault-503 SHARE        share of API requests answered 503
  --fault-drop SHARE       share of API requests whose connection is dropped
  --fault-delay SHARE      share of API requests delayed by --fault-delay-ms
  --fault-delay-ms N       that delay (default 2000)
  --webhook-retry-base-ms N  first webhook retry delay (default 10000)
  --webhook-max-attempts N   attempts of one delivery (default 8)
  --webhook-timeout-ms N     an attempt's answer is waited for this long (default 10000)
  --webhook-claimed-timeout-ms N  once its event is claimed, an attempt waits this long from the claim (default 120000)
  --webhook-ping-min-ms N    first ping of a disabled webhook, then doubling (default 60000)
  --webhook-ping-max-ms N    longest interval between pings (default 3600000)
  --webhook-gone-after-ms N  404/410 only for this long: disabled as receiver_gone (default 86400000)
  --webhook-retention-ms N   events kept for a disabled webhook; then it is deleted (default 259200000)
  --webhook-grace-ms N       an old secret still verifies; an owner's deleted webhook can come back (default 600000)
  --webhook-upkeep-ms N      how often pings and retention are looked after (default 15000)
  --media-max-file-mb N    largest file of a media message kept (default 16)
  --media-max-total-mb N   all files kept together; past it the oldest go (default 128)
  --media-ttl-hours N      how long a file is kept; then its download answers 410 (default 24)
  --media-from-loopback    let media sent by URL be fetched from loopback (127.0.0.0/8, ::1, localhost);
                           off by default, as the file is served back to the key that sent the URL
  --help                   this text
`;

function number(value: string | undefined, name: string): number | undefined {
	if (value === undefined || value === '') return undefined;
	const parsed = Number(value);
	if (!Number.isFinite(parsed) || parsed < 0) {
		process.stderr.write(`${name} must be a non-negative number, not "${value}"\n`);
		process.exit(2);
	}
	return parsed;
}

const MIB = 1024 * 1024;

/** A number given in larger units (MB, hours), in the sandbox's own (bytes, milliseconds). */
function scaled(value: string | undefined, name: string, unit: number): number | undefined {
	const parsed = number(value, name);
	return parsed === undefined ? undefined : Math.round(parsed * unit);
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			port: { type: 'string' },
			host: { type: 'string' },
			'data-file': { type: 'string' },
			memory: { type: 'boolean' },
			'public-url': { type: 'string' },
			'rate-limit': { type: 'string' },
			'latency-ms': { type: 'string' },
			'fault-429': { type: 'string' },
			'fault-503': { type: 'string' },
			'fault-drop': { type: 'string' },
			'fault-delay': { type: 'string' },
			'fault-delay-ms': { type: 'string' },
			'webhook-retry-base-ms': { type: 'string' },
			'webhook-max-attempts': { type: 'string' },
			'webhook-timeout-ms': { type: 'string' },
			'webhook-claimed-timeout-ms': { type: 'string' },
			'webhook-ping-min-ms': { type: 'string' },
			'webhook-ping-max-ms': { type: 'string' },
			'webhook-gone-after-ms': { type: 'string' },
			'webhook-retention-ms': { type: 'string' },
			'webhook-grace-ms': { type: 'string' },
			'webhook-upkeep-ms': { type: 'string' },
			'media-max-file-mb': { type: 'string' },
			'media-max-total-mb': { type: 'string' },
			'media-ttl-hours': { type: 'string' },
			'media-from-loopback': { type: 'boolean' },
			help: { type: 'boolean' },
		},
	});
	if (values.help) {
		process.stdout.write(USAGE);
		return;
	}
	const env = process.env;
	const rateLimit = number(values['rate-limit'], '--rate-limit');
	const options: SandboxOptions = {
		port: number(values.port ?? env.SANDBOX_PORT, '--port') ?? 8787,
		host: values.host ?? env.SANDBOX_HOST ?? '127.0.0.1',
		dataFile: values.memory
			? undefined
			: (values['data-file'] ?? env.SANDBOX_DATA_FILE ?? '.sandbox-data/state.json'),
		publicUrl: values['public-url'] ?? env.SANDBOX_PUBLIC_URL,
		rateLimit:
			rateLimit === 0
				? false
				: rateLimit === undefined
					? undefined
					: { limit: rateLimit, windowMs: 60_000 },
		latencyMs: number(values['latency-ms'], '--latency-ms'),
		faults: {
			rateLimited: number(values['fault-429'], '--fault-429'),
			unavailable: number(values['fault-503'], '--fault-503'),
			dropped: number(values['fault-drop'], '--fault-drop'),
			delayed: number(values['fault-delay'], '--fault-delay'),
			delayMs: number(values['fault-delay-ms'], '--fault-delay-ms') ?? 2000,
		},
		webhooks: {
			retryBaseMs: number(values['webhook-retry-base-ms'], '--webhook-retry-base-ms'),
			maxAttempts: number(values['webhook-max-attempts'], '--webhook-max-attempts'),
			timeoutMs: number(values['webhook-timeout-ms'], '--webhook-timeout-ms'),
			claimedTimeoutMs: number(
				values['webhook-claimed-timeout-ms'],
				'--webhook-claimed-timeout-ms',
			),
			pingMinMs: number(values['webhook-ping-min-ms'], '--webhook-ping-min-ms'),
			pingMaxMs: number(values['webhook-ping-max-ms'], '--webhook-ping-max-ms'),
			receiverGoneMs: number(values['webhook-gone-after-ms'], '--webhook-gone-after-ms'),
			retentionMs: number(values['webhook-retention-ms'], '--webhook-retention-ms'),
			graceMs: number(values['webhook-grace-ms'], '--webhook-grace-ms'),
			upkeepMs: number(values['webhook-upkeep-ms'], '--webhook-upkeep-ms'),
		},
		media: {
			maxFileBytes: scaled(values['media-max-file-mb'], '--media-max-file-mb', MIB),
			maxTotalBytes: scaled(values['media-max-total-mb'], '--media-max-total-mb', MIB),
			ttlMs: scaled(values['media-ttl-hours'], '--media-ttl-hours', 60 * 60 * 1000),
		},
		outbound: { mediaFromLoopback: values['media-from-loopback'] === true },
		log: (message) => process.stderr.write(`${message}\n`),
	};

	const sandbox = await startSandbox(options);
	const lines = [
		`Multichannel sandbox listening on ${sandbox.baseUrl}`,
		`  API base URL:  ${sandbox.baseUrl}  (paths under /api/v1)`,
		`  OpenAPI:       ${sandbox.baseUrl}/api/v1/openapi.json`,
		`  State:         ${options.dataFile ?? 'in memory only (lost on exit)'}`,
	];
	if (sandbox.keys) {
		lines.push(
			'',
			'A new workspace was created. Its keys are shown this once only: store them now.',
		);
		for (const kind of KEY_KINDS) lines.push(`  ${KEY_KIND_TITLES[kind]}: ${sandbox.keys[kind]}`);
		lines.push(
			`  The workspace key also manages keys (${MANAGE_KEYS}) in the console: ${sandbox.baseUrl}/user/api`,
		);
	} else {
		lines.push(
			'',
			`Workspace ${sandbox.workspaceId} reloaded; its keys were shown on the first start.`,
		);
	}
	process.stdout.write(`${lines.join('\n')}\n`);

	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		process.stdout.write(`\n${signal}: saving state and stopping\n`);
		sandbox.close().then(
			() => process.exit(0),
			(error: unknown) => {
				process.stderr.write(`The state could not be saved: ${String(error)}\n`);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
	process.stderr.write(
		`The sandbox could not start: ${(error as Error)?.message ?? String(error)}\n`,
	);
	process.exit(1);
});
