import type { ClickRecord } from '../store/store';

/**
 * Enough user-agent reading for click statistics: bot or not, device class, browser family. Order matters:
 * Edge and Opera also say "Chrome", and Chrome also says "Safari".
 */
const BOT =
	/bot\b|bot\/|crawler|spider|slurp|crawling|facebookexternalhit|embedly|preview|curl\/|wget\/|python-requests|python-urllib|go-http-client|okhttp|java\/|headlesschrome|node-fetch|undici|axios/i;

const BROWSERS: Array<[RegExp, string]> = [
	[/EdgA?\/|Edg(iOS)?\//, 'Edge'],
	[/OPR\/|Opera/, 'Opera'],
	[/SamsungBrowser\//, 'Samsung Internet'],
	[/Firefox\/|FxiOS\//, 'Firefox'],
	[/Chrome\/|CriOS\//, 'Chrome'],
	[/Version\/[\d.]+.*Safari\//, 'Safari'],
];

export function readUserAgent(
	userAgent: string | undefined,
): Pick<ClickRecord, 'bot' | 'device' | 'browser'> {
	const ua = (userAgent ?? '').trim();
	// No user agent at all is what scripts send, not browsers.
	if (ua === '' || BOT.test(ua)) return { bot: true, device: 'bot', browser: null };
	const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1] ?? null;
	let device: ClickRecord['device'] = 'unknown';
	if (/iPad|Tablet|Android(?!.*Mobile)/i.test(ua)) device = 'tablet';
	else if (/Mobi|iPhone|iPod|Windows Phone/i.test(ua)) device = 'mobile';
	else if (/Windows NT|Macintosh|X11|Linux|CrOS/i.test(ua)) device = 'desktop';
	return { bot: false, device, browser };
}
