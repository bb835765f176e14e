import type { MessageMedia } from '../../src/client/resources/message-media';
import type { KeyKind, KeyScope } from './key-kinds';

/** The records the sandbox keeps (see ./store.ts): plain data, every one tagged with its workspace. */

export type { KeyKind };
export * from './conversation-records';
export * from './campaign-records';

export interface Workspace {
	id: string;
	name: string;
	createdAt: string;
}

export interface KeyRecord {
	id: string;
	workspaceId: string;
	kind: KeyKind;
	name: string;
	/** The first characters of the key, enough to recognise it in a list; never enough to use it. */
	prefix: string;
	/** sha256 of the whole key, hex: the key itself is never stored. */
	hash: string;
	scopes: KeyScope[];
	createdAt: string;
	lastUsedAt: string | null;
	revokedAt: string | null;
}

export type InstanceStatus = 'created' | 'connecting' | 'connected' | 'disconnected';

export interface InstanceRecord {
	id: string;
	workspaceId: string;
	name: string;
	description: string | null;
	status: InstanceStatus;
	phoneNumber: string | null;
	/** The pending connection attempt, while `connecting`. */
	connection: {
		method: 'qr' | 'pairing_code';
		qrCode: string | null;
		pairingCode: string | null;
		phoneNumber: string | null;
		expiresAt: string;
	} | null;
	/** Typing indicators shown now or lately, by chat id (`sendTyping`). */
	typing?: Record<string, { state: string; until: string }>;
	/** Each contact's last `online` or `offline` (`presence.updated`), by their `from`: a repeat is no event. */
	presence?: Record<string, 'online' | 'offline'>;
	/** Set by `update`: every incoming call is rejected at once, the text (if any) sent to the caller. */
	callSettings?: { rejectCalls: boolean; rejectCallsText: string | null };
	/** The channel's latest limit on the instance (`instance.restricted`). */
	restriction?: { reason: string; description: string; until: string | null; restrictedAt: string };
	/** How long a chat handed over stays so with no message from the business's own phone (30 when absent). */
	handOverQuietMinutes?: number;
	createdAt: string;
	updatedAt: string;
}

export interface MessageRecord {
	id: string;
	workspaceId: string;
	instanceId: string;
	chatId: string;
	direction: 'outbound' | 'inbound';
	/** A received message's sender: their number, or their contact id when they hide it (`channel/people.ts`). */
	from: string | null;
	to: string | null;
	/** A received message: the sender's number when they show it, and their username when they have one. */
	phone?: string;
	username?: string;
	type: string;
	/** The file of a media message; its bytes are in `core.media` while they are kept. */
	media?: MessageMedia | null;
	status: 'pending' | 'sent' | 'delivered' | 'read' | 'failed';
	content: Record<string, unknown>;
	error: { code: string; message: string } | null;
	/** Sent with `trackLinks`: each URL replaced, and its short link. */
	trackedLinks?: TrackedLinkRecord[];
	createdAt: string;
	updatedAt: string;
	/** A received tap on a button or list row of one of our interactive messages. */
	reply?: { type: 'button' | 'list'; id: string; title: string; toMessageId: string };
	editedAt?: string;
	/** Deleted for everyone by its sender (the contact): when. Its content is gone, the record stays. */
	deletedAt?: string;
	/** A received message an answer registration took (sandbox/channel/answers.ts), or refused (`refused`: its sender may not answer). */
	answeredQuestion?: { registrationId: string; messageId: string; refused?: true };
	/** Sent from the business's own phone (the console's "answer as the business"), not through the API. */
	fromBusinessPhone?: true;
	/** A question whose registration asked to remove its buttons once answered: when it was answered. */
	closedByAnswerAt?: string;
	/** A question once answered: the answer in words, who, when; and who was told so after a late tap. */
	answeredWith?: { what: string; from: string | null; at: string; told?: string[] };
	/** A poll the instance sent: each voter's latest vote (option indexes; empty: withdrawn). */
	pollVotes?: Record<string, { optionIndexes: number[]; votedAt: string }>;
	/** A scheduled send that went (sandbox/channel/scheduled.ts): its time, when it went, whether late. */
	sendAt?: string;
	sentAt?: string;
	late?: boolean;
	/** The numbers its text or caption mentions (at most MAX_MENTIONS), and "everyone" in a group. */
	mentions?: string[];
	mentionEveryone?: boolean;
	/** A received message that mentions the instance's own number (or everyone). */
	mentionsMe?: boolean;
	/** A campaign's message: the recipient it went to (sandbox/campaigns/). */
	campaignRecipientId?: string;
}

export interface Participant {
	phoneNumber: string;
	role: 'member' | 'admin' | 'superadmin';
}

export interface GroupRecord {
	id: string;
	workspaceId: string;
	instanceId: string;
	subject: string;
	description: string | null;
	owner: string | null;
	participants: Participant[];
	settings: { announcementsOnly: boolean; locked: boolean };
	inviteCode: string;
	createdAt: string;
	updatedAt: string;
}

export interface LinkRecord {
	id: string;
	workspaceId: string;
	code: string;
	url: string;
	title: string | null;
	tags: string[];
	expiresAt: string | null;
	/** Clicks by people; clicks by bots are recorded but not counted here. */
	clickCount: number;
	/** A tracked link: the message it was made for and that message's recipient. */
	messageId?: string | null;
	recipient?: string | null;
	createdAt: string;
	updatedAt: string;
}

export interface ClickRecord {
	id: string;
	workspaceId: string;
	linkId: string;
	code: string;
	clickedAt: string;
	referrer: string | null;
	country: string | null;
	device: 'desktop' | 'mobile' | 'tablet' | 'bot' | 'unknown';
	browser: string | null;
	bot: boolean;
	userAgent: string | null;
	/** Copied from a tracked link when it is clicked. */
	messageId?: string | null;
	recipient?: string | null;
}

export interface TrackedLinkRecord {
	url: string;
	shortUrl: string;
	linkId: string;
}

export interface WebhookRecord {
	id: string;
	workspaceId: string;
	/** Which key kind registered it, and so which events it may receive. */
	surface: KeyKind;
	url: string;
	events: string[];
	secret: string;
	filters: { instanceIds?: string[]; linkIds?: string[] };
	/** Messaging webhooks only: bursts of a chat delivered as one event (sandbox/delivery/gathering.ts). */
	gather?: { quietSeconds: number; maxWaitSeconds: number } | null;
	/** Short-link and automation webhooks only: events delivered in batches (sandbox/delivery/batching.ts). */
	batch?: { maxEvents: number; maxWaitSeconds: number } | null;
	description: string | null;
	/**
	 * `deleted`: deleted by its owner less than the grace period ago; invisible to the API, its pending deliveries
	 * held, taken back by a registration of the same owner (a republish in n8n deletes, then registers again).
	 */
	status: 'active' | 'disabled' | 'deleted';
	disabledReason: string | null;
	/** Why it is disabled: `failures` and `receiver_gone` are pinged until acknowledged; `api` waits for a call. */
	disabledCode?: 'failures' | 'receiver_gone' | 'api' | null;
	/** When it was disabled (or deleted by its owner): its retention counts from here. */
	disabledAt?: string | null;
	/** Deliveries in a row that used up all their attempts; reset by any success. */
	failedDeliveries: number;
	/** Those deliveries: held again, not lost, when they make the webhook disabled. */
	failingDeliveryIds?: string[];
	/** The receiver's key for itself: a registration of the same owner replaces this webhook in place. */
	owner?: string | null;
	/** Only an acknowledged 2xx answer is delivered (the contract's `requireAcknowledgement`). */
	requireAcknowledgement?: boolean;
	/** The secret before the last rotation, still taken for signed claims until `previousSecretUntil`. */
	previousSecret?: string | null;
	previousSecretUntil?: string | null;
	/** Since when every answer has been 404 or 410 (reset by any other); 24 hours of it: `receiver_gone`. */
	goneSince?: string | null;
	/** While disabled and pinged: when the next ping goes, and the interval after it. */
	nextPingAt?: string | null;
	pingIntervalMs?: number;
	/** The ping under way until it is answered: one cut short by a crash goes again under its id. */
	ping?: { eventId: string; createdAt: string } | null;
	createdAt: string;
	updatedAt: string;
}

export interface DeliveryAttempt {
	attempt: number;
	at: string;
	responseStatus: number | null;
	error: string | null;
	durationMs: number;
}

/** One event on its way to one receiver (a webhook, an answer registration); updated after each attempt. */
export interface DeliveryProgress {
	eventId: string;
	/** The exact JSON sent, so that every attempt carries the same bytes. */
	payload: string;
	/** Attempts made so far. */
	attempt: number;
	/** `held`: kept, without attempts, while its receiver cannot take it (a disabled webhook). */
	status: 'pending' | 'held' | 'succeeded' | 'failed';
	responseStatus: number | null;
	error: string | null;
	updatedAt: string;
	nextAttemptAt: string | null;
	attempts: DeliveryAttempt[];
}

/** One event on its way to one webhook. */
export interface DeliveryRecord extends DeliveryProgress {
	id: string;
	workspaceId: string;
	webhookId: string;
	eventType: string;
	createdAt: string;
}

/**
 * The messages of one chat held for one gathering webhook until the chat is quiet (sandbox/delivery/gathering.ts): kept
 * in the data file, so that a restart neither loses a burst nor delivers it twice. Its messages are records of
 * their own (BurstMessageRecord), so that holding one more writes that message, not the whole burst again.
 */
export interface OpenBurstRecord {
	/** `gth_` + a hash of webhook, instance and chat: a chat's open burst is found by its id, without a scan. */
	id: string;
	workspaceId: string;
	webhookId: string;
	instanceId: string;
	chatId: string;
	/** The id its event is delivered under, drawn when it opened. */
	eventId: string;
	/** Messages held: the records `<id>/0` … `<id>/<count - 1>`. */
	count: number;
	firstAt: string;
	lastAt: string;
	/** When it is delivered unless another message comes first: the quiet period after the last, or the cap. */
	dueAt: string;
}

/** One message an open burst holds: the data of its `message.received` event, as it would be delivered alone. */
export interface BurstMessageRecord {
	/** `<burst id>/<index>`. */
	id: string;
	workspaceId: string;
	burstId: string;
	data: Record<string, unknown>;
}

/** A record of the `bursts` collection: an open burst, or one message it holds. */
export type BurstRecord = OpenBurstRecord | BurstMessageRecord;

/**
 * The events held for one batching webhook until its batch is full or due (sandbox/delivery/batching.ts): kept in the data
 * file, so that a restart neither loses an event accepted nor delivers a batch twice. Its events are records of
 * their own (BatchedEventRecord), so that holding one more writes that event, not the whole batch again.
 */
export interface OpenBatchRecord {
	/** `bat_<webhook id>`: a webhook has at most one open batch, found by its id. */
	id: string;
	workspaceId: string;
	webhookId: string;
	/** The id its event is delivered under, drawn when it opened. */
	eventId: string;
	/** Events held: the records `<id>/0` … `<id>/<count - 1>`. */
	count: number;
	/** The bytes of their JSON (absent in batches opened before it was counted: taken as 0). */
	bytes?: number;
	firstAt: string;
	lastAt: string;
	/** When it is delivered unless it fills up first: `maxWaitSeconds` after it opened. */
	dueAt: string;
}

/** One event an open batch holds, exactly as it would be delivered alone. */
export interface BatchedEventRecord {
	/** `<batch id>/<index>`. */
	id: string;
	workspaceId: string;
	batchId: string;
	event: {
		id: string;
		type: string;
		createdAt: string;
		workspaceId: string;
		data: unknown;
	};
}

/** A record of the `batches` collection: an open batch, or one event it holds. */
export type BatchRecord = OpenBatchRecord | BatchedEventRecord;

/** The first claim of an event delivered to a webhook (see the webhooks' `claimEvent`). */
export interface ClaimRecord {
	/** `<webhookId>:<eventId>`. */
	id: string;
	workspaceId: string;
	webhookId: string;
	eventId: string;
	/** The delivery request the claim was made for, when the receiver named it. */
	deliveryId?: string | null;
	/**
	 * false: a lease of that open attempt, which lapses unless the attempt is acknowledged. Absent (claims kept
	 * before leases) or true: the event was taken.
	 */
	final?: boolean;
	claimedAt: string;
}

/** A signed claim's signature, taken once: kept until its timestamp is too old to be accepted anyway. */
export interface UsedSignatureRecord {
	/** The signature, as the service computes it. */
	id: string;
	workspaceId: string;
	keptUntil: string;
}

/** A one-shot wait for the answer to a message (the `answers` resource). */
export interface AnswerRecord {
	id: string;
	workspaceId: string;
	instanceId: string;
	/** The question; null while pending (registered with `to`, before the send that names it). */
	messageId: string | null;
	chatId: string;
	accepts: Array<'reply' | 'text'>;
	url: string;
	secret: string;
	/** The client's name for the question, echoed in the answer. */
	reference?: string;
	expiresAt: string;
	createdAt: string;
	/** Set when the answer came: its delivery to `url`. */
	delivery: DeliveryProgress | null;
	/** Who may answer (E.164); absent: anyone in the chat. */
	allowedToAnswer?: string[];
	/** What is done to the question once answered (sandbox/channel/answer-controls.ts). */
	afterAnswer?: { editQuestion?: boolean; removeButtons?: boolean };
	/** Those told they cannot answer (each once; bounded by `allowedToAnswer`'s refusals, MAX_TOLD). */
	told?: string[];
}

export interface AutomationEventRecord {
	id: string;
	workspaceId: string;
	name: string;
	type: string;
	payload: Record<string, unknown>;
	occurredAt: string;
	createdAt: string;
}

export interface IdempotencyRecord {
	/** workspace, key kind and the client's Idempotency-Key. */
	key: string;
	/** Hash of method, path and the validated input: another body under the same key is a 409. */
	fingerprint: string;
	status: number;
	body: unknown;
	createdAtMs: number;
}
