/* eslint-disable @n8n/community-nodes/no-restricted-globals -- browser code of the sandbox's console, never inside n8n */
import { elementById, copyText, setError } from './dom';
import type { ExampleBody } from './examples';
import type { RequestValues } from './openapi';
import {
	clearSecret,
	createKey,
	currentSecret,
	enter,
	refreshKeysSoon,
	renderScopes,
	signOut,
} from './keys';
import {
	answerAsBusiness,
	giveBack,
	cancelQuote,
	closeChat,
	openChat,
	restrictInstance,
	sendPresence,
	sendSample,
	sendText,
	startCall,
	uploadFile,
} from './chat';
import { offerChats, offerInstances, offerNumbers } from './chat-pick';
import { campaignsMoving, renderCampaigns } from './campaigns';
import { Reference } from './reference';
import { messageOf, onKeyUsed, session, statusOf } from './session';

/**
 * The console page's script (bundled by console/script.ts into one inline script): wires the sign-in, the
 * key list, the phone and the API reference to the page. `window.multichannelConsole` exposes the cURL and example
 * builders so the tests can check them against the contract's own schemas.
 */

declare global {
	interface Window {
		multichannelConsole: {
			ready: Promise<boolean> | null;
			curlFor(operationId: string, key: string, values?: Partial<RequestValues>): string | null;
			exampleBodies(): Record<string, ExampleBody>;
		};
	}
}

const baseUrl = (document.body.getAttribute('data-base-url') || location.origin).replace(
	/\/+$/,
	'',
);
const reference = new Reference(baseUrl);

elementById('signin-form').addEventListener('submit', (event) => {
	event.preventDefault();
	const input = elementById<HTMLInputElement>('signin-key');
	const submit = elementById<HTMLButtonElement>('signin-submit');
	setError(elementById('signin-error'), '');
	submit.disabled = true;
	enter(input.value.trim())
		.then(
			() => {
				input.value = '';
				void offerInstances();
				void renderCampaigns();
			},
			(error: unknown) => setError(elementById('signin-error'), messageOf(error)),
		)
		.finally(() => {
			submit.disabled = false;
		});
});

elementById('signout').addEventListener('click', () => {
	closeChat();
	signOut('');
});
elementById('create-kind').addEventListener('change', renderScopes);
elementById('create-form').addEventListener('submit', (event) => {
	event.preventDefault();
	void createKey();
});

elementById('secret-copy').addEventListener('click', () => {
	const secret = currentSecret();
	if (secret) copyText(secret, elementById('secret-copy'));
});
elementById('secret-use').addEventListener('click', () => {
	const secret = currentSecret();
	if (!secret) return;
	elementById<HTMLInputElement>('ref-key').value = secret;
	reference.render();
	elementById('reference').scrollIntoView();
});
elementById('secret-dismiss').addEventListener('click', clearSecret);
elementById('chat-pick').addEventListener('submit', (event) => {
	event.preventDefault();
	openChat();
});
// Instances made since the sign-in are offered too.
elementById('chat-instance').addEventListener('focus', () => void offerInstances());
elementById('chat-instance').addEventListener('change', () => void offerChats());
elementById('chat-group').addEventListener('change', () => void offerNumbers());
elementById('chat-compose').addEventListener('submit', (event) => {
	event.preventDefault();
	void sendText();
});
elementById('chat-answer-business').addEventListener('click', () => void answerAsBusiness());
elementById('chat-give-back').addEventListener('click', () => void giveBack());
elementById('chat-send-sample').addEventListener('click', () => void sendSample());
elementById('chat-file').addEventListener('change', () => void uploadFile());
elementById('chat-quote-cancel').addEventListener('click', cancelQuote);
elementById('chat-call-voice').addEventListener('click', () => void startCall('voice'));
elementById('chat-call-video').addEventListener('click', () => void startCall('video'));
elementById('chat-presence-send').addEventListener('click', () => void sendPresence());
elementById('chat-restrict').addEventListener('click', () => void restrictInstance());
elementById('campaigns-refresh').addEventListener('click', () => void renderCampaigns());
elementById('ref-key').addEventListener('input', () => reference.render());
elementById('ref-key-show').addEventListener('click', () => reference.toggleKey());
elementById('ref-filter').addEventListener('input', () => reference.render());

// "Last used" kept current (keys.ts, refreshKeysSoon): after the console's own API calls, when the tab is
// looked at again, and every 30 s while it is shown.
const KEYS_REFRESH_MS = 30_000;
onKeyUsed(() => refreshKeysSoon());
window.addEventListener('focus', () => refreshKeysSoon(0));
document.addEventListener('visibilitychange', () => {
	if (document.visibilityState === 'visible') refreshKeysSoon(0);
});
setInterval(() => {
	if (document.visibilityState === 'visible') refreshKeysSoon(0);
}, KEYS_REFRESH_MS);
// A running campaign's progress moves on its own: read again every few seconds while the tab shows. Only then:
// each read is an API call with the signed-in key (its "last used", and a reload of the key list).
const CAMPAIGNS_REFRESH_MS = 3_000;
setInterval(() => {
	if (document.visibilityState === 'visible' && session.key && campaignsMoving()) {
		void renderCampaigns();
	}
}, CAMPAIGNS_REFRESH_MS);

window.multichannelConsole = {
	ready: null,
	curlFor: (operationId, key, values) => reference.curlFor(operationId, key, values),
	exampleBodies: () => reference.exampleBodies(),
};

renderScopes();
const referenceReady = reference.load();
const remembered = session.key;
const sessionReady = remembered
	? enter(remembered)
			.then(() => Promise.all([offerInstances(), renderCampaigns()]))
			.catch((error: unknown) =>
				signOut(statusOf(error) === 401 ? `Signed out: ${messageOf(error)}` : messageOf(error)),
			)
	: Promise.resolve();
window.multichannelConsole.ready = Promise.all([referenceReady, sessionReady]).then(() => {
	document.body.setAttribute('data-ready', 'true');
	return true;
});
