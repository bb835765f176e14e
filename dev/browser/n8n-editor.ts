import type { BrowserPage } from './chromium';

/** The browser id the page keeps in localStorage and sends as `browser-id`. */
const BROWSER_ID = 'multichannel-dev';

/**
 * Signs a page in to n8n's editor as the given user, as the editor's own sign-in does: n8n binds the session
 * cookie to the browser id the page keeps in localStorage. The sign-in is a request of the page's context (its
 * cookies are the page's), so that no page is loaded for it: the editor's app is loaded once, by the first page
 * opened after it (a load costs 5–15 s, more under load). Used by `npm run screenshot` and the e2e editor files.
 */
export async function signInToEditor(
	page: BrowserPage,
	n8nUrl: string,
	user: { email: string; password: string },
): Promise<void> {
	// Set before the editor's own scripts run, on every document the page loads.
	await page.playwright.addInitScript(
		`try { localStorage.setItem('n8n-browserId', ${JSON.stringify(BROWSER_ID)}); } catch {}`,
	);
	const response = await page.playwright.context().request.post(`${n8nUrl}/rest/login`, {
		headers: { 'browser-id': BROWSER_ID },
		data: { emailOrLdapLoginId: user.email, password: user.password },
		timeout: 30_000,
	});
	if (response.status() !== 200) throw new Error(`signing in to n8n answered ${response.status()}`);
}
