/* eslint-disable @n8n/community-nodes/no-restricted-globals -- browser code of the sandbox's console, never inside n8n */

/**
 * DOM helpers of the console page. The page is filled through `textContent` only, so a key name or a schema
 * description is never parsed as HTML.
 */

/** The page's element with this id; a missing one is a bug of the page, so it throws. */
export function elementById<T extends HTMLElement = HTMLElement>(id: string): T {
	const node = document.getElementById(id);
	if (!node) throw new Error(`The console page has no #${id}`);
	return node as T;
}

type Attributes = Record<string, string | boolean | undefined | null>;
type Child = Node | string | null | undefined;

/** An element with attributes (`text` sets its text, `className` its class) and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	attributes: Attributes = {},
	children: Child[] = [],
): HTMLElementTagNameMap[K] {
	const node = document.createElement(tag);
	for (const [name, value] of Object.entries(attributes)) {
		if (value === undefined || value === null || value === false) continue;
		if (name === 'text') node.textContent = String(value);
		else if (name === 'className') node.className = String(value);
		else node.setAttribute(name, value === true ? '' : String(value));
	}
	for (const child of children) {
		if (child === null || child === undefined) continue;
		node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
	}
	return node;
}

export function show(node: HTMLElement, visible: boolean): void {
	node.hidden = !visible;
}

export function setError(node: HTMLElement, message: string | undefined): void {
	node.textContent = message ?? '';
	show(node, Boolean(message));
}

/** The page's status line. */
export function notice(message: string): void {
	setError(elementById('notice'), message);
}

export function formatTime(value: string | null): string {
	if (!value) return 'never';
	return `${new Date(value).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Copies to the clipboard, and says on the button whether it worked. */
export function copyText(text: string, button: HTMLElement): void {
	const done = (ok: boolean) => {
		const label = button.textContent;
		button.textContent = ok ? 'Copied' : 'Select and copy';
		setTimeout(() => {
			button.textContent = label;
		}, 1500);
	};
	if (navigator.clipboard && window.isSecureContext) {
		navigator.clipboard.writeText(text).then(
			() => done(true),
			() => done(fallbackCopy(text)),
		);
	} else {
		done(fallbackCopy(text));
	}
}

function fallbackCopy(text: string): boolean {
	const area = el('textarea', { readonly: true });
	area.value = text;
	document.body.appendChild(area);
	area.select();
	let ok = false;
	try {
		// The only way without the clipboard API (a page served over plain HTTP on another host).
		ok = document.execCommand('copy');
	} catch {
		ok = false;
	}
	area.remove();
	return ok;
}
