import {
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import type { RateLimitInfo } from '../../src/client';
import { problemBeforeSending } from './checking';
import type { ConnectedClient, ConnectionOptions, ServiceConnection } from './connections';
import type { ErrorContext, NodeError } from './error-context';
import { errorJson, toNodeError } from './errors';
import { rerunProtected } from './idempotency';
import { defaultCountryFor } from './phone';
import {
	findOperation,
	operationOf,
	type ChosenOperation,
	type OperationModule,
	type ResourceModule,
} from './resources';
import { ErrorWithNote, withNote, withWhatWent } from './what-went';

export interface ActionNodeConfig<C> {
	resources: Array<ResourceModule<C>>;
	/** The node's key: its kind, named in error messages, and how its client is opened (once per run). */
	connection: ServiceConnection<C>;
	/** Client options the node was built with (none in n8n; tests pass shorter waits). */
	options?: ConnectionOptions;
	/**
	 * The rate-limit headers of the latest answer, so that items wait for the window to reset instead of
	 * running into 429. Defaults to the client's `rateLimit`, when it has one.
	 */
	rateLimit?: (client: C) => RateLimitInfo | undefined;
}

/** The most items in flight at once, whatever a node asks for. */
export const MAX_CONCURRENCY = 20;
/** Items in flight when an operation that runs several at a time was not told how many. */
export const DEFAULT_CONCURRENCY = 5;
/** The longest wait for a rate-limit window; past it the request goes, and the client's 429 handling applies. */
const MAX_RATE_LIMIT_WAIT_MS = 60_000;

/**
 * The "Concurrency" option, in the Options collection of every operation that declares `concurrent`: how
 * many of its items are in flight at once.
 */
export const concurrencyOption: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	default: DEFAULT_CONCURRENCY,
	typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
	description:
		'How many items to send at the same time. Output keeps the order of the input items, and sending slows down when the rate limit of the key is reached.',
};

/** The `execute` of an action node: every input item runs its resource's operation (`executeActions`). */
export function actionNodeExecute<C>(
	config: ActionNodeConfig<C>,
): (this: IExecuteFunctions) => Promise<INodeExecutionData[][]> {
	return async function (this: IExecuteFunctions) {
		return await executeActions(this, config);
	};
}

/**
 * The `execute` of every action node: each input item runs its resource's operation, every output carries
 * `pairedItem`, and a failure either stops the run or, with "continue on fail", becomes that item's error
 * output, mapped in one place (`toNodeError`). Items of an operation that declares `concurrent` may run a
 * few at a time (its "Concurrency" option); their outputs are still in input order, and a new item waits
 * while the service says the key has no requests left. Items of an operation that writes are all checked
 * before the first one runs (`checkAllFirst`), so that one bad item stops the run before anything was sent.
 */
export async function executeActions<C>(
	context: IExecuteFunctions,
	config: ActionNodeConfig<C>,
): Promise<INodeExecutionData[][]> {
	const items = context.getInputData();
	// Read once for the run, as n8n's own nodes do (Google Sheets v2's router): neither takes an expression.
	const chosen = {
		resource: context.getNodeParameter('resource', 0, '') as string,
		operation: context.getNodeParameter('operation', 0, '') as string,
	};
	const chosenOperation = operationOf(config.resources, chosen);
	const optionsOf = itemOptionsReader(context, chosenOperation);
	// An operation over the whole input runs once, for the first item (`wholeInput`).
	const wholeInput = chosenOperation?.wholeInput === true;
	const runs = wholeInput ? Math.min(items.length, 1) : items.length;
	const outputs: INodeExecutionData[][] = new Array(runs);
	const failures = new Map<number, NodeError>();
	let connecting: Promise<ConnectedClient<C>> | undefined;
	let checkingClient: C | undefined;
	let inFlight = 0;

	const concurrency = concurrencyOf(context, chosenOperation, optionsOf);
	const rateLimitOf =
		config.rateLimit ?? ((client: C) => (client as { rateLimit?: RateLimitInfo }).rateLimit);

	/** Waits while the latest answer said that the requests already in flight use up what is left. */
	async function paceForRateLimit(client: C) {
		const { remaining, reset } = rateLimitOf(client) ?? {};
		if (remaining === undefined || reset === undefined || remaining > inFlight) return;
		const waitMs = reset * 1000 - Date.now();
		if (waitMs <= 0) return;
		context.logger.debug(
			`Multichannel: the key's rate limit is used up; waiting ${waitMs} ms for it to reset`,
		);
		await sleep(Math.min(waitMs, MAX_RATE_LIMIT_WAIT_MS));
	}

	/** Runs one item; with `checkOnly`, an item of an operation that writes is only checked (nothing sent). */
	async function runItem(itemIndex: number, checkOnly = false): Promise<INodeExecutionData[]> {
		const errorContext: ErrorContext = { itemIndex, keyKind: config.connection.keyKind };
		try {
			const { resource, operation } = findOperation(
				context.getNode(),
				config.resources,
				chosen,
				itemIndex,
			);
			errorContext.scope = operation.scope;
			errorContext.noun = resource.noun;
			errorContext.fields = operation.fields;

			connecting ??= config.connection.connect(context, config.options);
			const connection = await connecting;
			errorContext.secrets = connection.secrets;
			errorContext.serviceUrl = connection.serviceUrl;
			const defaultCountry = defaultCountryFor(context, itemIndex, connection.defaultCountry);
			const options = optionsOf(itemIndex);

			if (checkOnly) {
				if (!operation.scope.endsWith(':write')) return [];
				checkingClient ??= config.connection.checking(
					context,
					connection.serviceUrl ?? '',
					config.options,
				);
				const client = checkingClient;
				const problem = await problemBeforeSending(
					async () =>
						await operation.execute.call(context, { client, itemIndex, defaultCountry, options }),
				);
				if (problem !== undefined) throw problem;
				return [];
			}

			await paceForRateLimit(connection.client);
			inFlight++;
			let result;
			try {
				result = await operation.execute.call(context, {
					client: connection.client,
					itemIndex,
					defaultCountry,
					options,
				});
			} finally {
				inFlight--;
			}
			const produced = operation.outputsBinary
				? [result as INodeExecutionData]
				: context.helpers.returnJsonArray(result as IDataObject | IDataObject[]);
			return context.helpers.constructExecutionMetaData(produced, {
				itemData: wholeInput ? items.map((_, item) => ({ item })) : { item: itemIndex },
			});
		} catch (error) {
			const nodeError =
				error instanceof ErrorWithNote
					? withNote(toNodeError(context.getNode(), error.failure, errorContext), error.note)
					: toNodeError(context.getNode(), error, errorContext);
			if (context.continueOnFail()) {
				return [{ json: errorJson(nodeError), pairedItem: { item: itemIndex } }];
			}
			throw nodeError;
		}
	}

	await checkAllFirst(context, runs, runItem);

	// Items take turns to start. Starting an item costs 1–2 ms of CPU (n8n evaluates its expressions and
	// builds its request); several started back to back held up the requests in flight (connecting, sending,
	// reading their answers), so that at concurrency 10 and 20 ms of service latency a request took ~34 ms
	// instead of ~22 (bench/RESULTS.md). After an item starts, the next one waits for n8n's `sleep(0)` (the
	// timers a node may use), which lets the loop read its I/O first in most cases; an item that finds no
	// start pending starts at once, so an idle loop costs no wait.
	let turnTaken: Promise<void> | undefined;
	async function waitForTurn() {
		while (turnTaken) await turnTaken;
		turnTaken = sleep(0).then(() => {
			turnTaken = undefined;
		});
	}

	// A fixed number of workers take the next item in turn; after a failure (without "continue on fail") no
	// new item starts, the ones in flight finish, and the failure of the first such item stops the run.
	let next = 0;
	const mayStart = () => next < runs && failures.size === 0;
	async function worker() {
		while (mayStart()) {
			if (concurrency > 1) {
				await waitForTurn();
				if (!mayStart()) return; // another worker took the last item, or an item failed, meanwhile
			}
			const itemIndex = next++;
			try {
				outputs[itemIndex] = await runItem(itemIndex);
			} catch (error) {
				failures.set(itemIndex, error as NodeError);
			}
		}
	}
	await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(runs, 1)) }, worker));

	if (failures.size > 0) {
		const failedItem = Math.min(...failures.keys());
		const done = outputs.flatMap((output, itemIndex) => (output ? [itemIndex] : []));
		const error = failures.get(failedItem) as NodeError;
		throw withWhatWent(
			error,
			failedItem,
			done,
			runs,
			rerunSafe(context, config.resources, chosen, optionsOf, failedItem),
		);
	}
	return [outputs.flat()];
}

/** Whether a re-run of the item's operation does not send again what went through (its Re-Run Protection). */
function rerunSafe<C>(
	context: IExecuteFunctions,
	resources: Array<ResourceModule<C>>,
	chosen: ChosenOperation,
	optionsOf: (itemIndex: number) => IDataObject,
	itemIndex: number,
) {
	try {
		const { operation } = findOperation(context.getNode(), resources, chosen, itemIndex);
		return rerunProtected(optionsOf(itemIndex), operation.description);
	} catch {
		return false; // the item's operation or its options could not be read: nothing of it went
	}
}

/**
 * The Options collection of an item, read once (each read evaluates every expression in it) and handed to the
 * operation: the check before sending and the send itself see the same options. Empty for an operation
 * without one.
 */
function itemOptionsReader<C>(
	context: IExecuteFunctions,
	operation: OperationModule<C> | undefined,
): (itemIndex: number) => IDataObject {
	const offered = operation?.description.some((field) => field.name === 'options') === true;
	const read = new Map<number, IDataObject>();
	return (itemIndex) => {
		if (!offered) return {};
		let options = read.get(itemIndex);
		if (!options) {
			options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
			read.set(itemIndex, options);
		}
		return options;
	};
}

/**
 * Before any item of a run of several is sent, every item of an operation that writes runs as far as its first
 * request on a client that sends nothing (`nodes/shared/checking.ts`): the first item found wrong stops the run
 * with its usual error, and nothing went. With "continue on fail" nothing is checked first: a bad item becomes
 * its error output in the run itself, and the others are sent.
 */
async function checkAllFirst(
	context: IExecuteFunctions,
	itemCount: number,
	check: (itemIndex: number, checkOnly: true) => Promise<unknown>,
): Promise<void> {
	if (itemCount < 2 || context.continueOnFail()) return;
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) await check(itemIndex, true);
}

/**
 * How many items run at once: the "Concurrency" option of an operation that declares `concurrent`, read on
 * the first item as it applies to the whole run; other operations run their items one after the other.
 */
function concurrencyOf<C>(
	context: IExecuteFunctions,
	operation: OperationModule<C> | undefined,
	optionsOf: (itemIndex: number) => IDataObject,
): number {
	if (context.getInputData().length < 2) return 1;
	if (!operation?.concurrent) return 1;
	try {
		return clampConcurrency(optionsOf(0).concurrency ?? DEFAULT_CONCURRENCY);
	} catch {
		return 1; // the first item's options cannot be read: its run says why
	}
}

function clampConcurrency(value: unknown): number {
	const number = Math.floor(Number(value));
	if (!Number.isFinite(number) || number < 1) return 1;
	return Math.min(number, MAX_CONCURRENCY);
}
