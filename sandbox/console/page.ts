/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';

import { MAX_LENGTH } from '../../src/client/resources/message-sends';
import { consoleScript } from './script';
import { CONSOLE_STYLE } from './style';

/**
 * The console's single HTML page. Everything is inline (the sandbox works offline); the script and the
 * style carry the per-response CSP nonce, and the script fills the page only through `textContent`, so a
 * key name or a schema description is never parsed as HTML.
 */

/** Answers `GET`/`HEAD /user/api` with the page, under a fresh nonce and a strict Content-Security-Policy. */
export function servePage(res: ServerResponse, method: string, baseUrl: string): void {
	const nonce = randomBytes(16).toString('base64');
	const html = renderConsolePage({ nonce, baseUrl });
	res.writeHead(200, {
		'Content-Type': 'text/html; charset=utf-8',
		'Content-Length': Buffer.byteLength(html),
		'Content-Security-Policy': [
			"default-src 'none'",
			`script-src 'nonce-${nonce}'`,
			`style-src 'nonce-${nonce}'`,
			"connect-src 'self'",
			// The chat's stickers and voice notes: files read with the key, shown from object URLs.
			"img-src 'self' data: blob:",
			'media-src blob:',
			"base-uri 'none'",
			"form-action 'none'",
			"frame-ancestors 'none'",
		].join('; '),
		'X-Content-Type-Options': 'nosniff',
		'X-Frame-Options': 'DENY',
		'Referrer-Policy': 'no-referrer',
		'Cache-Control': 'no-store',
	});
	res.end(method === 'HEAD' ? undefined : html);
}

export function renderConsolePage(options: { nonce: string; baseUrl: string }): string {
	const nonce = escapeHtml(options.nonce);
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API console · Multichannel sandbox</title>
<style nonce="${nonce}">${CONSOLE_STYLE}</style>
</head>
<body data-base-url="${escapeHtml(options.baseUrl)}">
<header class="top">
	<div class="brand"><span class="logo">MC</span> Multichannel sandbox <span class="muted">· API console</span></div>
	<div class="who" id="who" hidden>
		<span id="workspace-name"></span>
		<span class="muted" id="signed-in-key"></span>
		<button type="button" class="secondary" id="signout">Sign out</button>
	</div>
</header>
<main>
	<p class="notice" id="notice" role="status" hidden></p>

	<section class="card" id="signin">
		<h2>Sign in</h2>
		<p>Enter the console with one of your workspace's API keys (the sandbox prints the seeded workspace's
		three keys on its first start). The key stays in this tab only and is sent as
		<code>Authorization: Bearer</code> to the console's endpoints.</p>
		<form id="signin-form" autocomplete="off">
			<label for="signin-key">API key</label>
			<div class="row">
				<input id="signin-key" type="password" placeholder="mcw_…, mcl_… or mca_…" spellcheck="false" required>
				<button type="submit" id="signin-submit">Sign in</button>
			</div>
			<p class="error" id="signin-error" role="alert" hidden></p>
		</form>
	</section>

	<section class="card" id="keys" hidden>
		<h2>API keys</h2>
		<form id="create-form" autocomplete="off">
			<div class="create-grid">
				<div class="create-name">
					<label for="create-name">Name</label>
					<input id="create-name" type="text" maxlength="100" placeholder="e.g. Production server" required>
				</div>
				<div class="create-kind">
					<label for="create-kind">Kind</label>
					<select id="create-kind">
						<option value="workspace">Workspace (models, messaging)</option>
						<option value="shortLink">Short link</option>
						<option value="automation">Automation</option>
					</select>
				</div>
				<div class="create-scopes">
					<span class="label">Scopes</span>
					<div id="create-scopes" class="scopes"></div>
				</div>
				<div class="create-submit"><button type="submit" id="create-submit">Generate key</button></div>
			</div>
			<p class="error" id="create-error" role="alert" hidden></p>
		</form>

		<div class="secret" id="secret-panel" hidden>
			<p><strong>Your new key <span id="secret-name"></span>.</strong> Copy it now and keep it safe: it is
			shown this once and never again (the sandbox keeps only its hash).</p>
			<div class="row">
				<code id="secret-value"></code>
				<button type="button" id="secret-copy">Copy</button>
				<button type="button" class="secondary" id="secret-use">Use in the reference</button>
				<button type="button" class="secondary" id="secret-dismiss">Done</button>
			</div>
		</div>

		<table id="keys-table">
			<thead><tr><th>Name</th><th>Prefix</th><th>Kind</th><th>Scopes</th><th>Created</th><th>Last used</th><th>Status</th><th></th></tr></thead>
			<tbody id="keys-body"></tbody>
		</table>
	</section>

	<datalist id="instance-options"></datalist>
	<section class="card" id="chat">
		<h2>Phone</h2>
		<p>Be a contact of one of your instances, or a member of one of its groups: write, send a file, reply to
		(quote) a message, tap its buttons and list rows. What you send arrives as <code>message.received</code>, which
		starts a trigger; what n8n sends shows here within a second with its status, as do the typing indicator,
		edits and reactions. Sent with the key you signed in with (a workspace key).</p>
		<form id="chat-pick" autocomplete="off">
			<div class="grid">
				<div>
					<label for="chat-instance">Instance</label>
					<select id="chat-instance"><option value="">Sign in to pick one</option></select>
				</div>
				<div>
					<label for="chat-group">Chat</label>
					<select id="chat-group"><option value="">A contact (1:1 chat)</option></select>
				</div>
				<div>
					<label for="chat-from" id="chat-from-label">Contact</label>
					<input id="chat-from" type="text" list="chat-member-options" placeholder="+14155550123 (international, with +)" spellcheck="false" required>
					<datalist id="chat-member-options"></datalist>
				</div>
				<div class="submit"><button type="submit" id="chat-open">Open the chat</button></div>
			</div>
			<p class="error" id="chat-pick-error" role="alert" hidden></p>
		</form>
		<div class="phone" id="chat-phone" hidden>
			<div class="phone-head">
				<div><strong id="chat-title"></strong> <span class="typing" id="chat-typing" role="status" hidden></span></div>
				<div class="muted" id="chat-subtitle"></div>
				<div class="phone-tools">
					<span class="labels" id="chat-labels"></span>
					<span class="muted" id="chat-reject-calls" hidden>calls are rejected (instance setting)</span>
					<span class="muted" id="chat-handed-over" hidden>a person is handling this chat (handed over)</span>
					<button type="button" class="secondary small" id="chat-give-back" title="The person is done: your workflows answer this chat again (chat.handed_back), as Chat → Give Back does" hidden>Give back</button>
					<button type="button" class="secondary small" id="chat-call-voice" title="Call the instance (voice)">📞 Call</button>
					<button type="button" class="secondary small" id="chat-call-video" title="Call the instance (video)">🎥 Video</button>
					<select id="chat-presence" aria-label="Presence">
						<option value="typing">typing…</option>
						<option value="recording">recording audio…</option>
						<option value="online">online</option>
						<option value="offline">offline</option>
					</select>
					<button type="button" class="secondary small" id="chat-presence-send" title="Show the instance this presence (presence.updated)">Send presence</button>
					<select id="chat-restrict-reason" aria-label="Restriction reason">
						<option value="spam_reports">spam reports</option>
						<option value="unusual_activity">unusual activity</option>
						<option value="policy_violation">policy violation</option>
					</select>
					<button type="button" class="secondary small" id="chat-restrict" title="The channel restricts the instance for 24 hours, a warning before a ban (instance.restricted)">Restrict the instance</button>
				</div>
			</div>
			<ol class="bubbles" id="chat-messages"></ol>
			<div class="quoting" id="chat-quoting" hidden>
				<span id="chat-quoting-text"></span>
				<button type="button" class="secondary small" id="chat-quote-cancel">Cancel</button>
			</div>
			<form id="chat-compose" class="compose" autocomplete="off">
				<input id="chat-text" type="text" maxlength="${MAX_LENGTH.text}" placeholder="Write as the contact (with a file: its caption)">
				<button type="submit" id="chat-send">Send</button>
				<button type="button" class="secondary" id="chat-answer-business" title="Send the typed text as the business, from its own phone rather than through the API: the chat is handed over to a person">Answer as the business</button>
			</form>
			<div class="attach">
				<select id="chat-sample" aria-label="Sample file">
					<option value="image">Image (PNG)</option>
					<option value="voice">Voice note (Ogg/Opus)</option>
					<option value="sticker">Sticker (WebP)</option>
					<option value="pdf">Document (PDF)</option>
				</select>
				<button type="button" class="secondary" id="chat-send-sample">Send the sample</button>
				<label class="button secondary" for="chat-file">Upload a file…</label>
				<input type="file" id="chat-file" class="visually-hidden">
			</div>
			<p class="error" id="chat-error" role="alert" hidden></p>
		</div>
	</section>
	<section class="card" id="campaigns">
		<h2>Campaigns</h2>
		<p>The workspace's latest campaigns and how far each has come. It reloads every few seconds.</p>
		<div class="row"><button type="button" class="secondary small" id="campaigns-refresh">Reload</button></div>
		<p class="error" id="campaigns-error" role="alert" hidden></p>
		<div id="campaigns-body"><p class="muted">Sign in to see the campaigns.</p></div>
	</section>
	<section class="card" id="reference">
		<h2>API reference</h2>
		<p>Every endpoint of the OpenAPI document (<a id="openapi-link" href="/api/v1/openapi.json">openapi.json</a>).
		Paste a key to build ready-to-run cURL commands; open an endpoint to fill in its parameters and edit its JSON
		body. The key stays masked, in the commands too, until you press Show; Copy cURL always copies it in full.</p>
		<div class="grid two">
			<div>
				<label for="ref-key">Your API key</label>
				<div class="row">
					<input id="ref-key" type="password" placeholder="paste a key: mcw_…, mcl_… or mca_…" spellcheck="false" autocomplete="off">
					<button type="button" class="secondary" id="ref-key-show" aria-pressed="false" aria-controls="ref-key">Show</button>
				</div>
			</div>
			<div>
				<label for="ref-filter">Filter</label>
				<input id="ref-filter" type="search" placeholder="path, summary or tag" autocomplete="off">
			</div>
		</div>
		<p class="error" id="reference-error" role="alert" hidden></p>
		<div id="reference-body"><p class="muted">Loading the OpenAPI document…</p></div>
	</section>
</main>
<script nonce="${nonce}">${consoleScript()}</script>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
	return text.replace(
		/[&<>"']/g,
		(character) =>
			({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ??
			character,
	);
}
