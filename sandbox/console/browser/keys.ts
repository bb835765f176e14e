/* eslint-disable @n8n/community-nodes/no-restricted-globals -- browser code of the sandbox's console, never inside n8n */
import { API_SCOPES, KIND_SCOPES, MANAGE_KEYS, type KeyKind } from '../../store/key-kinds';
import type { KeyView, SessionView } from '../views';
import { elementById, el, formatTime, notice, setError, show } from './dom';
import { call, messageOf, session, statusOf } from './session';

/** Signing in and out, and the key list: generate a key (its secret shown once), revoke one. */

export const KIND_LABEL: Record<KeyKind, string> = {
	workspace: 'Workspace',
	shortLink: 'Short link',
	automation: 'Automation',
};

/** The key generated last and its secret, while its "shown once" panel shows. */
let lastSecret: { keyId: string; secret: string } | null = null;

export function currentSecret(): string | null {
	return lastSecret?.secret ?? null;
}

export function clearSecret(): void {
	lastSecret = null;
	elementById('secret-value').textContent = '';
	elementById('secret-name').textContent = '';
	show(elementById('secret-panel'), false);
}

export function signOut(message: string): void {
	session.forget();
	clearSecret();
	show(elementById('keys'), false);
	show(elementById('who'), false);
	show(elementById('signin'), true);
	elementById('keys-body').textContent = '';
	notice(message);
}

/** Signs in with a key: the session, then the key list; the key is kept for reloads once it works. */
export async function enter(key: string): Promise<void> {
	session.use(key);
	let current: SessionView | undefined;
	try {
		current = await call<SessionView>('GET', '/session');
	} finally {
		// A key that does not work is not kept.
		if (!current) session.forget();
	}
	session.use(key, true);
	elementById('workspace-name').textContent = `${current.workspace.name} (${current.workspace.id})`;
	elementById('signed-in-key').textContent = `signed in with ${current.key.prefix}…`;
	show(elementById('signin'), false);
	show(elementById('who'), true);
	show(elementById('keys'), current.canManageKeys);
	if (!current.canManageKeys) {
		notice(
			`This key cannot manage keys: that takes a workspace key with the scope ${MANAGE_KEYS} (the ` +
				"workspace's default workspace key has it). The API reference below works with any key.",
		);
		return;
	}
	notice('');
	await loadKeys();
}

/** The scope checkboxes of the kind chosen in the form: its API scopes ticked, keys:manage not. */
export function renderScopes(): void {
	const kind = elementById<HTMLSelectElement>('create-kind').value as KeyKind;
	const box = elementById('create-scopes');
	box.textContent = '';
	for (const scope of KIND_SCOPES[kind]) {
		const ticked = (API_SCOPES[kind] as string[]).includes(scope);
		const input = el('input', { type: 'checkbox', name: 'scope', value: scope, checked: ticked });
		input.checked = ticked;
		box.appendChild(el('label', {}, [input, scope]));
	}
}

export async function loadKeys(): Promise<void> {
	const askedWith = session.key;
	const page = await call<{ data: KeyView[] }>('GET', '/keys');
	// A list asked for before a sign-out, or with another key, is not this session's (a refresh in flight when
	// the person signed out would put the last workspace's keys back): it is dropped.
	if (session.key !== askedWith || elementById('keys').hidden) return;
	// A revoked key's secret is of no use to anyone: its panel goes, whoever revoked it.
	const shown = lastSecret && page.data.find((key) => key.id === lastSecret?.keyId);
	if (lastSecret && shown?.status !== 'active') clearSecret();
	const body = elementById('keys-body');
	body.textContent = '';
	for (const key of page.data) {
		const revoke = key.status === 'active' ? revokeButton(key) : null;
		body.appendChild(
			el('tr', { 'data-key-id': key.id, className: key.status }, [
				el('td', { className: 'name', text: key.name }),
				el('td', { className: 'prefix mono', text: `${key.prefix}…` }),
				el('td', { className: 'kind', text: KIND_LABEL[key.kind] ?? key.kind }),
				el(
					'td',
					{ className: 'scopes' },
					key.scopes.map((scope) => el('span', { className: 'badge', text: scope })),
				),
				el('td', { className: 'created', text: formatTime(key.createdAt) }),
				el('td', { className: 'last-used', text: formatTime(key.lastUsedAt) }),
				el('td', { className: 'status' }, [
					el('span', { className: `badge ${key.status}`, text: key.status }),
				]),
				el('td', {}, [revoke]),
			]),
		);
	}
}

let refreshTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Reloads the list soon, for its "last used": after the console's own API calls (they come in bursts), when
 * the tab is looked at again (a copied cURL command was run elsewhere) and now and then. Quietly, and not
 * while a revoke is under way (its own reload follows).
 */
export function refreshKeysSoon(delayMs = 300): void {
	clearTimeout(refreshTimer);
	refreshTimer = setTimeout(() => {
		if (!session.key || elementById('keys').hidden) return;
		if (document.querySelector('#keys-body button:disabled')) return;
		loadKeys().catch((error: unknown) => {
			if (statusOf(error) === 401) signOut(messageOf(error));
		});
	}, delayMs);
}

const CONFIRM_MS = 6000;
/** Keys whose Revoke was clicked once, and until when a second click revokes them (a reload keeps that). */
const confirmingUntil = new Map<string, number>();

function revokeButton(key: KeyView): HTMLButtonElement {
	const button = el('button', { type: 'button', className: 'danger small revoke' });
	setConfirming(button, (confirmingUntil.get(key.id) ?? 0) > Date.now());
	button.addEventListener('click', () => revokeClicked(button, key));
	return button;
}

function setConfirming(button: HTMLButtonElement, confirming: boolean): void {
	button.classList.toggle('confirming', confirming);
	button.textContent = confirming ? 'Confirm revoke' : 'Revoke';
}

/** Revoke asks for a second click within 6 s. */
function revokeClicked(button: HTMLButtonElement, key: KeyView): void {
	if (!button.classList.contains('confirming')) {
		confirmingUntil.set(key.id, Date.now() + CONFIRM_MS);
		setConfirming(button, true);
		setTimeout(() => {
			confirmingUntil.delete(key.id);
			// The key's button now: the list may have been reloaded meanwhile.
			const current = document.querySelector<HTMLButtonElement>(
				`#keys-body tr[data-key-id="${CSS.escape(key.id)}"] button.revoke`,
			);
			if (current && !current.disabled) setConfirming(current, false);
		}, CONFIRM_MS);
		return;
	}
	confirmingUntil.delete(key.id);
	button.disabled = true;
	const own = session.key?.slice(0, key.prefix.length) === key.prefix;
	call('POST', `/keys/${encodeURIComponent(key.id)}/revoke`)
		.then(async () => {
			notice(`Key "${key.name}" (${key.prefix}…) was revoked: requests with it now get 401.`);
			if (own) {
				signOut('You revoked the key you signed in with; sign in with another key.');
				return;
			}
			await loadKeys();
		})
		.catch((error: unknown) => {
			button.disabled = false;
			if (statusOf(error) === 401) {
				signOut(messageOf(error));
				return;
			}
			notice(messageOf(error));
		});
}

/** The form's submit: generates the key and shows its secret, this once. */
export async function createKey(): Promise<void> {
	const error = elementById('create-error');
	setError(error, '');
	const scopes = Array.from(
		document.querySelectorAll<HTMLInputElement>('#create-scopes input:checked'),
		(input) => input.value,
	);
	if (scopes.length === 0) {
		setError(error, 'Choose at least one scope.');
		return;
	}
	const submit = elementById<HTMLButtonElement>('create-submit');
	const name = elementById<HTMLInputElement>('create-name');
	submit.disabled = true;
	try {
		const created = await call<{ key: KeyView; secret: string }>('POST', '/keys', {
			name: name.value.trim(),
			kind: elementById<HTMLSelectElement>('create-kind').value,
			scopes,
		});
		lastSecret = { keyId: created.key.id, secret: created.secret };
		elementById('secret-name').textContent = `"${created.key.name}"`;
		elementById('secret-value').textContent = created.secret;
		show(elementById('secret-panel'), true);
		name.value = '';
		await loadKeys();
	} catch (failure) {
		if (statusOf(failure) === 401) signOut(messageOf(failure));
		else setError(error, messageOf(failure));
	} finally {
		submit.disabled = false;
	}
}
