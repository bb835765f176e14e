import type { presentCall } from '../channel/calls';
import type { pollResults } from '../channel/polls';
import type { presentMessage } from '../present';
import type { presentScheduled } from '../channel/scheduled';
import type { KeyKind, KeyScope } from '../store/key-kinds';

/**
 * What the console's endpoints answer, as types only: the sandbox builds them (console/api.ts) and the
 * browser script reads them (console/browser/).
 */

/** What the console shows of a key: never its hash, never the key itself. */
export interface KeyView {
	id: string;
	name: string;
	kind: KeyKind;
	prefix: string;
	scopes: KeyScope[];
	createdAt: string;
	lastUsedAt: string | null;
	revokedAt: string | null;
	status: 'active' | 'revoked';
}

/** `GET /user/api/session`: who is signed in. */
export interface SessionView {
	workspace: { id: string; name: string };
	key: KeyView;
	/** Whether the key may list, generate and revoke keys (`keys:manage`). */
	canManageKeys: boolean;
	/** The scopes each kind of key can hold. */
	kinds: Record<KeyKind, KeyScope[]>;
}

/** A message as the API shows it. */
export type MessageView = ReturnType<typeof presentMessage>;

/** `GET /user/api/instances/{instanceId}/chat?with=…`: one chat as the contact's phone shows it. */
export interface ChatView {
	instance: {
		id: string;
		name: string;
		status: string;
		phoneNumber: string | null;
		/** The instance's setting: every call is rejected at once. */
		rejectCalls: boolean;
	};
	chatId: string;
	/**
	 * The contact of a one-to-one chat as its messages name them in `from`: their number, or their contact id when
	 * they hide it (the phone writes as `@username`); absent in a group, and before a new username first writes.
	 */
	you?: string;
	/** Its latest messages, oldest first, both ways. */
	messages: MessageView[];
	/** The instance's typing indicator in the chat, while it shows. */
	typing: { state: string; until: string } | null;
	/** A person handles the chat (hand-over): the business answered from its phone, or a workflow handed it over. */
	handedOver: boolean;
	/** The chat's labels, in the order they were put on. */
	labels: Array<{ id: string; name: string; color: string }>;
	/** The current results of each poll the instance sent among `messages`, by message id. */
	polls: Record<string, PollResultsView>;
	/** The chat's latest calls, oldest first. */
	calls: CallView[];
	/** The instance's sends to the chat still to go at their time, or cancelled, oldest first. */
	scheduled: ScheduledView[];
}

export type PollResultsView = ReturnType<typeof pollResults>;
export type CallView = ReturnType<typeof presentCall>;
export type ScheduledView = ReturnType<typeof presentScheduled>;
