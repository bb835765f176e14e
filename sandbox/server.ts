/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the sandbox runs in plain Node, never inside n8n */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { resumeAnswers } from './channel/answers';
import { createConsoleHandler } from './console/api';
import { DEFAULT_SIMULATION, SandboxCore, type SimulationOptions } from './core';
import {
	DEFAULT_DELIVERY_OPTIONS,
	type DeliveryOptions,
	type EventEnvelope,
} from './delivery/delivery-engine';
import { keepIdleConnections } from './http/keep-alive';
import { resumeMessages } from './channel/progress';
import { resumeCalls } from './channel/calls';
import { startScheduledSends } from './channel/scheduled';
import { startHandOverChecks } from './channel/hand-over';
import { startCampaigns } from './campaigns/sender';
import { DEFAULT_SCHEDULED_LIMITS, type ScheduledLimits } from './scheduled-limits';
import {
	createWorkspace,
	upgradeKeyScopes,
	issueKey,
	revokeKey,
	type IssuedKey,
	type SeededWorkspace,
} from './store/keys';
import { DEFAULT_MEDIA_LIMITS, type MediaLimits } from './files/media';
import type { OutboundOptions } from './outbound/outbound';
import { DEFAULT_GATHERING_LIMITS, type GatheringLimits } from './delivery/gathering';
import { Persistence } from './store/persistence';
import { createApiHandler } from './http/pipeline/api';
import { answerClientError } from './http/pipeline/client-error';
import { createDispatcher } from './http/pipeline/dispatch';
import { Faults, type FaultOptions } from './http/pipeline/faults';
import { createRequestHandler } from './http/pipeline/handler';
import { pruneIdempotency } from './http/pipeline/idempotency';
import { RateLimiter, type RateLimitOptions } from './http/pipeline/rate-limit';
import { handleRedirect } from './http/pipeline/redirect';
import { buildRoutes } from './http/routes';
import type { KeyKind, KeyRecord, Store } from './store/store';

/**
 * `startSandbox()`: the sandbox as a running server. It opens the state (data file or memory), seeds a
 * workspace on the first start, wires the request pipeline (sandbox/http/pipeline/) and the console, listens, and
 * hands back what tests and tools need.
 */

export interface SandboxOptions {
	/** 0 (the default) picks a free port. */
	port?: number;
	host?: string;
	/** Where state is kept across restarts; in memory only when omitted. */
	dataFile?: string;
	/** The base URL to announce (short URLs, invite links) when it differs from the listening address. */
	publicUrl?: string;
	/** Fixed delay added to every API request. */
	latencyMs?: number;
	faults?: FaultOptions;
	/** Per key; `false` turns rate limiting off. Default 600 requests a minute. */
	rateLimit?: RateLimitOptions | false;
	simulation?: Partial<SimulationOptions>;
	/** Webhook delivery: retry base, attempts, timeout, when to disable. */
	webhooks?: Partial<DeliveryOptions>;
	/** The smallest data file (journal) that is compacted; default 1 MiB. */
	compactMinBytes?: number;
	/** JSON bodies; default 1 MiB. */
	maxBodyBytes?: number;
	/** Multipart uploads; default 16 MiB. */
	maxUploadBytes?: number;
	/** The files of media messages, kept in memory: largest file, all files, how long (sandbox/files/media.ts). */
	media?: Partial<MediaLimits>;
	/**
	 * How the sandbox reaches out (sandbox/outbound/): whether files sent by URL may come from loopback, and how
	 * names are resolved.
	 */
	outbound?: OutboundOptions;
	/** Gathered messages: messages per burst, open bursts per workspace (sandbox/delivery/gathering.ts). */
	gathering?: Partial<GatheringLimits>;
	/** Scheduled sends: how many are kept per workspace, how often due ones are looked for (sandbox/channel/scheduled.ts). */
	scheduled?: Partial<ScheduledLimits>;
	/** The clock, injectable so tests can jump a day ahead. */
	now?: () => number;
	/** Where unexpected errors are reported; default stderr. */
	log?: (message: string) => void;
}

export interface Sandbox {
	baseUrl: string;
	port: number;
	/** The seeded workspace. */
	workspaceId: string;
	/** The seeded workspace's plaintext keys: only when it was created by this start, never after a reload. */
	keys?: Record<KeyKind, string>;
	/** State access for tests and tools. */
	core: SandboxCore;
	store: Store;
	/** Every event emitted since start, oldest first. */
	events: EventEnvelope[];
	createWorkspace(name?: string): SeededWorkspace;
	issueKey(options: {
		workspaceId?: string;
		kind: KeyKind;
		name?: string;
		scopes?: KeyRecord['scopes'];
	}): IssuedKey;
	revokeKey(keyId: string, workspaceId?: string): KeyRecord | undefined;
	setFaults(faults: FaultOptions): void;
	/** Writes the data file now (it is written after every change anyway). */
	save(): void;
	close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const host = options.host ?? '127.0.0.1';
	const clock = options.now ?? Date.now;
	const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));

	const persistence = await Persistence.open({
		dataFile: options.dataFile,
		clock,
		beforeSave: (nowMs) => pruneIdempotency(persistence.store, nowMs),
		onError: (error) =>
			log(`sandbox: a change could not be saved and was undone: ${String(error)}`),
		log,
		compactMinBytes: options.compactMinBytes,
	});
	const { store } = persistence;
	const save = () => persistence.save();

	const core = new SandboxCore(
		store,
		{ ...DEFAULT_SIMULATION, ...withoutUndefined(options.simulation) },
		{ ...DEFAULT_DELIVERY_OPTIONS, ...withoutUndefined(options.webhooks) },
		clock,
		() => persistence.saveSoon(),
		persistence,
		(error) => log(`sandbox: background task failed: ${(error as Error)?.stack ?? String(error)}`),
		{ ...DEFAULT_MEDIA_LIMITS, ...withoutUndefined(options.media) },
		options.outbound,
		{ ...DEFAULT_GATHERING_LIMITS, ...withoutUndefined(options.gathering) },
	);

	upgradeKeyScopes(store);
	let seeded: SeededWorkspace | undefined;
	if (store.all('workspaces').length === 0)
		seeded = createWorkspace(store, 'Sandbox workspace', core.now());
	const workspaceId = seeded?.workspace.id ?? store.all('workspaces')[0].id;
	persistence.saveIfChanged();

	const faults = new Faults(options.faults);
	// One budget per key, for the API and the console.
	const rateLimiter = new RateLimiter(options.rateLimit ?? { limit: 600, windowMs: 60_000 });
	const dispatch = createDispatcher({
		core,
		api: createApiHandler({
			core,
			routes: buildRoutes(),
			persistence,
			rateLimiter,
			faults,
			latencyMs: options.latencyMs ?? 0,
			limits: {
				json: options.maxBodyBytes ?? 1024 * 1024,
				upload: options.maxUploadBytes ?? 16 * 1024 * 1024,
			},
			log,
		}),
		console: createConsoleHandler({
			core,
			store,
			now: () => core.now(),
			save,
			baseUrl: () => core.baseUrl,
			rateLimiter,
		}),
		redirect: (req, res, code) => handleRedirect(core, persistence, req, res, code),
	});
	const handle = createRequestHandler(dispatch, log, () => core.now().getTime());

	const server = createServer((req, res) => void handle(req, res));
	server.on('clientError', answerClientError);
	keepIdleConnections(server);
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, host, () => {
			server.off('error', reject);
			resolve();
		});
	}).catch(async (error: unknown) => {
		// The port is taken: the data file is not used after all, and its lock is given up.
		core.scheduler.close();
		await persistence.close();
		throw error;
	});
	const port = (server.address() as AddressInfo).port;
	const baseUrl = (
		options.publicUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`
	).replace(/\/+$/, '');
	core.baseUrl = baseUrl;

	// Work left unfinished by the previous run carries on.
	resumeMessages(core);
	core.deliveries.resume();
	core.upkeep.start();
	resumeAnswers(core);
	resumeCalls(core);
	core.scheduledLimits = { ...DEFAULT_SCHEDULED_LIMITS, ...options.scheduled };
	startScheduledSends(core);
	startHandOverChecks(core);
	startCampaigns(core);

	let closed: Promise<void> | undefined;
	return {
		baseUrl,
		port,
		workspaceId,
		keys: seeded?.keys,
		core,
		store,
		events: core.emitted,
		createWorkspace: (name = 'Another workspace') => {
			const created = createWorkspace(store, name, core.now());
			save();
			return created;
		},
		issueKey: ({ workspaceId: target = workspaceId, ...rest }) => {
			const issued = issueKey(store, { workspaceId: target, ...rest, now: core.now() });
			save();
			return issued;
		},
		revokeKey: (keyId, target = workspaceId) => {
			const revoked = revokeKey(store, target, keyId, core.now());
			save();
			return revoked;
		},
		setFaults: (next) => faults.set(next),
		save,
		close: () => {
			closed ??= (async () => {
				core.scheduler.close();
				await core.engine.close();
				await core.outbound.close();
				await new Promise<void>((resolve) => {
					server.close(() => resolve());
					server.closeAllConnections();
				});
				await persistence.close();
			})();
			return closed;
		},
	};
}

/** So that `{ retryBaseMs: undefined }` keeps the default instead of erasing it. */
function withoutUndefined<T extends object>(value: T | undefined): Partial<T> {
	return Object.fromEntries(
		Object.entries(value ?? {}).filter(([, item]) => item !== undefined),
	) as Partial<T>;
}
