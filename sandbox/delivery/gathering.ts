import { createHash } from 'node:crypto';

import {
	GATHER_MAX_MESSAGES,
	type GatheredMessages,
} from '../../src/client/resources/gathered-messages';
import type { EventEnvelope } from './delivery-engine';
import { EventHolder, itemIdOf, type HoldingContext } from './event-holder';
import { copyJson } from '../store/tracked';
import {
	newId,
	type BurstMessageRecord,
	type BurstRecord,
	handOverIdOf,
	type OpenBurstRecord,
	type WebhookRecord,
} from '../store/store';

/**
 * Gathered messages: for a webhook registered with `gather`, the messages a person sends in one chat are held
 * in a burst (one per webhook and chat) until the chat has been quiet for `quietSeconds`, or `maxWaitSeconds`
 * have passed since the burst's first message; then they go out as one `message.received` event. Bursts are
 * records of the store, so a restart finds them and their timers start again. The gathered event's id is
 * chosen when the burst opens: a burst sent again after a crash (its delivery made but not yet saved) carries
 * the same id, and the receiver's claim keeps it from running twice.
 *
 * What a message costs does not grow with what is open: its burst's id is made from webhook, instance and
 * chat (found without a scan), each message is a record of its own (a hold writes one message, not the whole
 * burst), and the open bursts of each workspace are known in the order they opened (the oldest is found at
 * once when one more would pass the bound).
 */

export interface GatheringLimits {
	/** A burst that reaches this many messages is delivered at once. */
	maxMessages: number;
	/** Open bursts per workspace; one more delivers that workspace's oldest at once. */
	maxOpenBursts: number;
}

export const DEFAULT_GATHERING_LIMITS: GatheringLimits = {
	maxMessages: GATHER_MAX_MESSAGES,
	maxOpenBursts: 10_000,
};

type MessageData = Record<string, unknown>;

/**
 * A message a person sent in a chat: received, with its instance and chat. A tap on reply buttons or a list,
 * and an answer a question took, are routed by what they answer, so they are never held.
 */
function gatherable(event: EventEnvelope): event is EventEnvelope & { data: MessageData } {
	if (event.type !== 'message.received') return false;
	const data = event.data as MessageData | null;
	return (
		data !== null &&
		typeof data === 'object' &&
		data.direction === 'inbound' &&
		typeof data.instanceId === 'string' &&
		typeof data.chatId === 'string' &&
		!data.reply &&
		!data.answeredQuestion &&
		// A chat a person handles (hand-over) is never held: its messages go at once.
		!data.handedOver
	);
}

/** The id of the open burst of a webhook's chat. */
function burstIdOf(webhookId: string, instanceId: string, chatId: string): string {
	const key = JSON.stringify([webhookId, instanceId, chatId]);
	return `gth_${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
}

/** A burst as kept before its messages were records of their own: its messages in it, its id drawn. */
type EarlierBurst = Omit<OpenBurstRecord, 'eventId' | 'count'> & {
	messages: Array<Record<string, unknown>>;
};

export function gatheredData(
	burst: OpenBurstRecord,
	messages: Array<Record<string, unknown>>,
): GatheredMessages {
	const from = messages.map((message) => message.from).find((value) => typeof value === 'string');
	return {
		gathered: true,
		instanceId: burst.instanceId,
		chatId: burst.chatId,
		from: from ?? null,
		count: messages.length,
		messageIds: messages.map((message) => String(message.id)),
		messages: messages as GatheredMessages['messages'],
		firstAt: burst.firstAt,
		lastAt: burst.lastAt,
	};
}

/** A message as the bursts holding it are found. */
type HeldMessage = { id: string; workspaceId: string; instanceId: string; chatId: string };

export class Gathering extends EventHolder<OpenBurstRecord, MessageData> {
	constructor(
		context: HoldingContext,
		private readonly limits: GatheringLimits = DEFAULT_GATHERING_LIMITS,
	) {
		super(context, 'bursts', limits.maxOpenBursts);
	}

	/** Holds the event in its chat's burst when the webhook gathers and the event is a person's message. */
	hold(webhook: WebhookRecord, event: EventEnvelope): boolean {
		const gather = webhook.gather;
		if (!gather || !gatherable(event)) return false;
		const { instanceId, chatId } = event.data as { instanceId: string; chatId: string };
		const now = this.now();
		const found = this.find(burstIdOf(webhook.id, instanceId, chatId));
		const burst = found ?? this.openBurst(webhook, instanceId, chatId, now);
		this.add(burst, copyJson(event.data));
		burst.lastAt = now.toISOString();
		const quietEnds = now.getTime() + gather.quietSeconds * 1000;
		const capReached = Date.parse(burst.firstAt) + gather.maxWaitSeconds * 1000;
		const wasDue = found ? Date.parse(burst.dueAt) : Infinity;
		const due = Math.min(quietEnds, capReached);
		burst.dueAt = new Date(due).toISOString();
		if (burst.count >= this.limits.maxMessages) this.flush(burst);
		// Its timer, when it fires early, waits for the later end: a new one only when the end came sooner.
		else if (due < wasDue) this.schedule(burst);
		return true;
	}

	/**
	 * Takes a message out of the bursts of its chat holding it: it answered a question, and goes to the wait only;
	 * or the contact deleted it, and a workflow must not answer it.
	 */
	withdraw(message: HeldMessage): void {
		for (const held of this.heldCopies(message)) this.store.remove('bursts', held.id);
	}

	/** A held message the contact edited: its burst carries it as it is now (`changes`: its new fields). */
	revise(message: HeldMessage, changes: MessageData): void {
		for (const held of this.heldCopies(message)) held.data = { ...held.data, ...copyJson(changes) };
	}

	/** The copies of a message in the open bursts of its chat: looks at its workspace's alone (at most the bound). */
	private *heldCopies(message: HeldMessage): Iterable<BurstMessageRecord> {
		for (const burstId of this.open.of(message.workspaceId)) {
			const burst = this.find(burstId);
			if (!burst || burst.instanceId !== message.instanceId) continue;
			if (burst.chatId !== message.chatId) continue;
			for (let index = 0; index < burst.count; index++) {
				const held = this.store.get('bursts', itemIdOf(burst.id, index));
				if (held && 'data' in held && held.data.id === message.id) yield held;
			}
		}
	}

	/** Delivers at once the open bursts of a chat just handed over to a person (marked so: eventOf). */
	release(chat: { workspaceId: string; instanceId: string; chatId: string }): void {
		for (const burstId of [...this.open.of(chat.workspaceId)]) {
			const burst = this.find(burstId);
			if (burst?.instanceId === chat.instanceId && burst.chatId === chat.chatId) this.flush(burst);
		}
	}

	/** After a restart: bursts kept the earlier way become records of now, then every burst is timed again. */
	resume(): void {
		let converted = false;
		for (const record of this.store.all('bursts')) {
			if (!('messages' in record)) continue;
			this.keepAsRecords(record as unknown as EarlierBurst);
			converted = true;
		}
		if (converted) this.onBackgroundChange();
		super.resume();
	}

	protected itemRecord(burst: OpenBurstRecord, id: string, data: MessageData): BurstMessageRecord {
		return { id, workspaceId: burst.workspaceId, burstId: burst.id, data };
	}

	protected valueOf(record: BurstRecord): MessageData | undefined {
		return 'data' in record ? record.data : undefined;
	}

	protected eventOf(burst: OpenBurstRecord, messages: MessageData[]): EventEnvelope {
		return {
			id: burst.eventId,
			type: 'message.received',
			createdAt: this.now().toISOString(),
			workspaceId: burst.workspaceId,
			data: {
				...gatheredData(burst, messages),
				...(this.store.get('handOvers', handOverIdOf(burst.instanceId, burst.chatId))
					? { handedOver: true as const }
					: {}),
			},
		};
	}

	private openBurst(
		webhook: WebhookRecord,
		instanceId: string,
		chatId: string,
		now: Date,
	): OpenBurstRecord {
		const at = now.toISOString();
		return this.openGroup({
			id: burstIdOf(webhook.id, instanceId, chatId),
			workspaceId: webhook.workspaceId,
			webhookId: webhook.id,
			instanceId,
			chatId,
			eventId: newId('evt'),
			count: 0,
			firstAt: at,
			lastAt: at,
			dueAt: at,
		});
	}

	/** A burst of a data file from before its messages were records: kept as the records of now. */
	private keepAsRecords({ messages, ...burst }: EarlierBurst): void {
		this.store.remove('bursts', burst.id);
		const kept = this.store.insert('bursts', {
			...burst,
			id: burstIdOf(burst.webhookId, burst.instanceId, burst.chatId),
			eventId: `evt_${burst.id.slice('gth_'.length)}`,
			count: messages.length,
		});
		messages.forEach((data, index) =>
			this.store.insert('bursts', {
				id: itemIdOf(kept.id, index),
				workspaceId: burst.workspaceId,
				burstId: kept.id,
				data,
			}),
		);
	}
}
