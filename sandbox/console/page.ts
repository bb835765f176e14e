/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';

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
			"img-src 'self' data:",
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

	<section class="card" id="phone">
		<h2>Simulate a contact</h2>
		<p>A contact of a connected instance sends a file, one of the sandbox's samples. It arrives as
		<code>message.received</code> with its <code>media</code> (name, type, size, SHA-256); the file itself is at
		<code>GET /api/v1/messages/{id}/media</code>. Sent with the key you signed in with (a workspace key).</p>
		<datalist id="instance-options"></datalist>
		<form id="phone-form" autocomplete="off">
			<div class="grid">
				<div>
					<label for="phone-instance">Instance ID</label>
					<input id="phone-instance" type="text" list="instance-options" placeholder="pick one, or inst_…" spellcheck="false" required>
				</div>
				<div>
					<label for="phone-from">From</label>
					<input id="phone-from" type="text" placeholder="+14155550123" spellcheck="false" required>
				</div>
				<div>
					<label for="phone-sample">File</label>
					<select id="phone-sample">
						<option value="image">Image (PNG)</option>
						<option value="voice">Voice note (Ogg/Opus)</option>
						<option value="pdf">Document (PDF)</option>
					</select>
				</div>
				<div>
					<label for="phone-caption">Caption</label>
					<input id="phone-caption" type="text" maxlength="1024" placeholder="optional">
				</div>
				<div class="submit"><button type="submit" id="phone-submit">Send the file</button></div>
			</div>
			<p class="error" id="phone-error" role="alert" hidden></p>
			<p class="muted" id="phone-result" role="status" hidden></p>
		</form>
	</section>
	<section class="card" id="tap">
		<h2>Tap a reply</h2>
		<p>The recipient of a buttons or list message that an instance sent taps one of its choices. It arrives as
		<code>message.received</code> with <code>reply</code> (type, id, title and the message it answers). Sent with
		the key you signed in with (a workspace key).</p>
		<form id="tap-form" autocomplete="off">
			<div class="grid">
				<div>
					<label for="tap-instance">Instance ID</label>
					<input id="tap-instance" type="text" list="instance-options" placeholder="pick one, or inst_…" spellcheck="false" required>
				</div>
				<div>
					<label for="tap-message">Message ID</label>
					<input id="tap-message" type="text" list="tap-message-options" placeholder="pick a recent one, or msg_…" spellcheck="false" required>
					<datalist id="tap-message-options"></datalist>
				</div>
				<div></div>
				<div class="submit"><button type="submit" id="tap-load">Show its choices</button></div>
			</div>
			<div class="choices" id="tap-choices"></div>
			<p class="error" id="tap-error" role="alert" hidden></p>
			<p class="muted" id="tap-result" role="status" hidden></p>
		</form>
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
