import type { BrowserPage } from './chromium';

/**
 * Signs a page in to n8n's editor as the given user, as the editor's own sign-in does: n8n binds the session
 * cookie to the browser id the page keeps in localStorage. Used by `npm run screenshot` and e2e/editor.test.mjs.
 */
export async function signInToEditor(
	page: BrowserPage,
	n8nUrl: string,
	user: { email: string; password: string },
): Promise<void> {
	await page.goto(`${n8nUrl}/signin`, 30_000);
	const status = await page.evaluate<number>(`(async () => {
		localStorage.setItem('n8n-browserId', 'multichannel-dev');
		const response = await fetch('/rest/login', {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'browser-id': 'multichannel-dev' },
			body: JSON.stringify(${JSON.stringify({ emailOrLdapLoginId: user.email, password: user.password })}),
		});
		return response.status;
	})()`);
	if (status !== 200) throw new Error(`signing in to n8n answered ${status}`);
}
