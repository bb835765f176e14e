/** The console's stylesheet, inlined into the page (no CDN, no web fonts: the sandbox works offline). */
export const CONSOLE_STYLE = String.raw`
:root { --bg: #f5f6f8; --card: #fff; --text: #1d2330; --muted: #667085; --line: #e3e6ec; --accent: #3b5bdb;
	--danger: #c92a2a; --ok: #2b8a3e; --code: #0f1522; --codetext: #e6e9ef; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
	background: var(--bg); color: var(--text); }
[hidden] { display: none !important; }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
.top { display: flex; justify-content: space-between; align-items: center; padding: 12px 24px; background: #111827;
	color: #fff; }
.brand { font-weight: 600; font-size: 15px; }
.logo { display: inline-block; background: var(--accent); border-radius: 6px; padding: 2px 6px; margin-right: 6px; }
.top .muted { color: #9ca3af; font-weight: 400; }
.who { display: flex; gap: 10px; align-items: center; }
main { max-width: 1180px; margin: 0 auto; padding: 20px 24px 60px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 18px 20px; margin-bottom: 18px; }
h2 { margin: 0 0 10px; font-size: 18px; }
h3 { margin: 22px 0 8px; font-size: 15px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 .muted { font-weight: 400; font-size: 12.5px; }
label, .label { display: block; font-weight: 600; font-size: 12.5px; margin-bottom: 4px; }
input[type=text], input[type=password], input[type=search], select { width: 100%; padding: 7px 9px; border: 1px solid #cfd4dc;
	border-radius: 6px; font: inherit; background: #fff; }
input:focus, select:focus { outline: 2px solid #a5b4fc; border-color: var(--accent); }
button { font: inherit; padding: 7px 14px; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent);
	color: #fff; cursor: pointer; white-space: nowrap; }
button.secondary, label.button.secondary { background: #fff; color: var(--accent); }
label.button { display: inline-block; margin: 0; font-weight: 400; font-size: 14px; padding: 7px 14px; border-radius: 6px;
	border: 1px solid var(--accent); cursor: pointer; white-space: nowrap; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
button.link { background: none; border: none; color: var(--accent); padding: 0; font-size: 12px; }
button.danger { background: #fff; color: var(--danger); border-color: var(--danger); }
button.danger.confirming { background: var(--danger); color: #fff; }
button.small { padding: 3px 9px; font-size: 12.5px; }
button:disabled { opacity: .5; cursor: default; }
.row { display: flex; gap: 8px; align-items: center; }
.grid { display: grid; grid-template-columns: 2fr 1.4fr 2fr auto; gap: 14px; align-items: end; }
.choices { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 10px; }
.choices:empty { display: none; }
.grid input, .grid select { height: 36px; }
.grid.two { grid-template-columns: 1fr 1fr; margin-bottom: 8px; }
.create-grid { display: grid; grid-template-columns: minmax(0, 3fr) minmax(17.5rem, 2fr) auto; gap: 12px 14px;
	align-items: start; grid-template-areas: "name kind ." "scopes scopes submit"; }
.create-name { grid-area: name; } .create-kind { grid-area: kind; } .create-scopes { grid-area: scopes; }
.create-submit { grid-area: submit; align-self: end; }
@media (max-width: 640px) {
	.create-grid { grid-template-columns: 1fr; grid-template-areas: "name" "kind" "scopes" "submit"; }
}
#create-scopes { display: flex; flex-wrap: wrap; gap: 4px 16px; padding: 4px 0; }
#create-scopes label { display: inline-flex; align-items: center; gap: 5px; font-weight: 400; margin: 0; white-space: nowrap; }
.muted { color: var(--muted); }
.error { color: var(--danger); margin: 8px 0 0; }
.notice { background: #fff4e6; border: 1px solid #ffd8a8; border-radius: 8px; padding: 9px 12px; }
.secret { margin: 16px 0; padding: 12px 14px; border: 1px solid #b2f2bb; background: #ebfbee; border-radius: 8px; }
.secret p { margin: 0 0 8px; }
.secret code { flex: 1; background: #fff; border: 1px dashed #8ce99a; padding: 7px 9px; border-radius: 6px; word-break: break-all; }
table { width: 100%; border-collapse: collapse; margin-top: 14px; }
th, td { text-align: left; padding: 7px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 12px; color: var(--muted); font-weight: 600; text-transform: uppercase; letter-spacing: .03em; }
tr.revoked td { color: var(--muted); }
.badge { display: inline-block; border-radius: 999px; padding: 1px 8px; font-size: 12px; background: #edf2ff; color: #364fc7; margin: 0 4px 2px 0; }
.badge.active { background: #ebfbee; color: var(--ok); }
.badge.revoked { background: #fff5f5; color: var(--danger); }
.op { border: 1px solid var(--line); border-radius: 8px; margin: 8px 0; }
.op > summary { list-style: none; cursor: pointer; display: flex; gap: 10px; align-items: center; padding: 8px 10px; }
.op > summary::-webkit-details-marker { display: none; }
.op[open] > summary { border-bottom: 1px solid var(--line); }
.op .body { padding: 10px 12px; }
.method { display: inline-block; min-width: 62px; text-align: center; font-weight: 700; font-size: 12px; border-radius: 5px;
	padding: 2px 6px; color: #fff; }
.method.get { background: #2b8a3e; } .method.post { background: #1c7ed6; } .method.patch { background: #e67700; }
.method.delete { background: #c92a2a; }
.op .path { font-weight: 600; }
.op .summary { color: var(--muted); }
.op .kind { margin-left: auto; }
.params td, .params th { padding: 4px 8px; font-size: 13px; }
.request-inputs { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 10px; margin: 10px 0; }
.request-inputs label { font-weight: 400; }
.request-inputs input { margin-top: 3px; }
textarea.body-input { width: 100%; padding: 7px 9px; border: 1px solid #cfd4dc; border-radius: 6px; resize: vertical;
	font-family: ui-monospace, "SFMono-Regular", Menlo, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
.warn { color: #b35c00; margin: 6px 0; }
.curl-head { display: flex; justify-content: space-between; align-items: center; margin-top: 10px; }
pre.curl { background: var(--code); color: var(--codetext); padding: 10px 12px; border-radius: 8px; overflow-x: auto; margin: 6px 0 0;
	white-space: pre; }
.phone { margin-top: 16px; max-width: 560px; border: 1px solid var(--line); border-radius: 14px; overflow: hidden;
	background: #efeae2; }
.phone-head { background: #075e54; color: #fff; padding: 10px 14px; }
.phone-head .muted { color: #cfe9e4; font-size: 12.5px; }
.typing { color: #b2f2bb; font-style: italic; font-size: 13px; margin-left: 6px; }
.bubbles { list-style: none; margin: 0; padding: 12px; height: 420px; overflow-y: auto; display: flex; flex-direction: column;
	gap: 8px; }
.bubbles:empty::before { content: "No messages in this chat yet: write the first one."; color: var(--muted); margin: auto; }
.bubble { max-width: 82%; padding: 6px 10px 4px; border-radius: 10px; background: #fff; box-shadow: 0 1px 1px rgba(0,0,0,.08);
	overflow-wrap: anywhere; }
.bubble.mine { align-self: flex-end; background: #d9fdd3; }
.bubble.theirs { align-self: flex-start; }
.bubble .sender { font-size: 12px; font-weight: 600; color: #6741d9; }
.bubble .quote { border-left: 3px solid #3b5bdb; background: rgba(0,0,0,.05); border-radius: 4px; padding: 3px 7px; margin: 2px 0 4px;
	font-size: 12.5px; color: var(--muted); }
.bubble .header { font-weight: 600; }
.bubble .text { white-space: pre-wrap; }
.bubble .footer, .bubble .list-title { font-size: 12.5px; }
.bubble .section-title { font-size: 12px; font-weight: 600; margin-top: 6px; color: var(--muted); }
.bubble .choices { margin-top: 6px; gap: 6px; }
.bubble button.choice { padding: 4px 10px; }
.bubble .options { margin: 4px 0; padding-left: 18px; }
.bubble .reactions { display: inline-block; margin-top: 2px; padding: 0 6px; border-radius: 999px; background: #fff;
	border: 1px solid var(--line); font-size: 13px; }
.bubble .foot { display: flex; justify-content: space-between; gap: 10px; align-items: baseline; }
.bubble .deleted { font-style: italic; }
.bubble .meta { display: flex; flex-wrap: wrap; gap: 6px; font-size: 11.5px; color: var(--muted); }
.bubble .status.read { color: #1c7ed6; }
.bubble .status.failed, .bubble .failure { color: var(--danger); }
.bubble .edited { font-style: italic; }
.bubble .from-phone { font-style: italic; }
.phone-tools { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-top: 6px; }
.phone-tools .labels { display: flex; flex-wrap: wrap; gap: 4px; flex: 1; }
.phone-tools button { background: #fff; }
.label-chip { padding: 1px 8px; border-radius: 999px; font-size: 12px; color: #1a1a1a; background: var(--chip, #dee2e6);
	border: 1px solid rgba(255,255,255,.6); }
.bubble .mention { color: #1971c2; font-weight: 600; }
.bubble .mention.you, .bubble .mention.instance { background: #e7f5ff; border-radius: 4px; padding: 0 2px; }
.bubble .mention-mark { font-size: 11.5px; font-weight: 600; color: #1971c2; }
.bubble.sticker { background: transparent; box-shadow: none; padding: 0; }
.bubble .sticker-image { display: block; width: 96px; height: 96px; object-fit: contain; }
.bubble .picture { display: block; max-width: 240px; max-height: 240px; min-width: 64px; border-radius: 6px;
	margin-bottom: 4px; }
.bubble .voice { display: flex; align-items: center; gap: 8px; }
.bubble .voice-label { font-size: 12px; font-weight: 600; color: var(--muted); }
.bubble .voice-player { height: 32px; max-width: 260px; }
.bubble .poll .options { list-style: none; padding: 0; margin: 6px 0 2px; display: flex; flex-direction: column; gap: 4px; }
.bubble .poll li { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
.bubble button.vote { padding: 3px 10px; min-width: 110px; text-align: left; }
.bubble button.vote.chosen { background: #d3f9d8; border-color: var(--ok); }
.bubble .votes { font-weight: 600; min-width: 1.5em; }
.bubble .voters, .bubble .poll-hint { font-size: 12px; }
.bubble.scheduled { opacity: .75; border: 1px dashed #868e96; }
.bubble.cancelled { opacity: .55; }
.bubble.cancelled .text { text-decoration: line-through; }
.bubble .scheduled-at { color: #5f3dc4; }
.call-line { align-self: center; max-width: 90%; padding: 4px 12px; border-radius: 8px; background: #fff8db; font-size: 12.5px;
	text-align: center; }
.call-line.missed, .call-line.rejected { background: #fff5f5; color: var(--danger); }
.call-line button { margin-left: 6px; }
.quoting { display: flex; justify-content: space-between; align-items: center; gap: 8px; padding: 6px 12px; background: #f8f9fa;
	border-top: 1px solid var(--line); font-size: 13px; }
.compose { display: flex; gap: 8px; padding: 8px 12px; background: #f0f2f5; border-top: 1px solid var(--line); }
.attach { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 0 12px 10px; background: #f0f2f5; }
.attach select { width: auto; }
.phone-tools select { width: auto; }
.phone .error { padding: 0 12px 10px; margin: 0; background: #f0f2f5; }
.campaign { display: grid; gap: 4px; padding: 10px 0; border-top: 1px solid var(--line); }
.campaign progress { width: 100%; height: 10px; }
@media (max-width: 640px) {
	main { padding: 12px 8px 40px; }
	.grid { grid-template-columns: 1fr; }
	.bubble { max-width: 92%; }
}
`;
