import type { CampaignRecord } from '../store/store';

/**
 * When a campaign may send: the gap between two sends (60/perMinute s plus a random 0..jitter s), and its daily
 * window in its time zone (Intl gives the local time; no time-zone table of our own).
 */

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** The gap after a send: the pacing's, plus a jitter of 0 to `jitterSeconds` (random: 0..1). */
export function gapMs(pacing: CampaignRecord['pacing'], random: number = Math.random()): number {
	return MINUTE_MS / pacing.perMinute + random * pacing.jitterSeconds * 1000;
}

type SendWindow = NonNullable<CampaignRecord['window']>;

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

interface LocalTime {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
}

/** One formatter per time zone: making one costs far more than using it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
	let formatter = formatters.get(timeZone);
	if (!formatter) {
		formatter = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
		formatters.set(timeZone, formatter);
	}
	return formatter;
}

/** The local date and time of an instant in a time zone. */
function localParts(at: number, timeZone: string): LocalTime {
	const parts = Object.fromEntries(
		formatterOf(timeZone)
			.formatToParts(at)
			.map((part) => [part.type, Number(part.value)]),
	) as unknown as LocalTime;
	return parts;
}

/** The instant a local date's time of day (in minutes) is in the time zone: its offset read at that moment. */
function instantOf(
	day: { year: number; month: number; day: number },
	minutes: number,
	timeZone: string,
) {
	const asUtc = Date.UTC(day.year, day.month - 1, day.day) + minutes * MINUTE_MS;
	const seen = localParts(asUtc, timeZone);
	const offset =
		Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute, seen.second) - asUtc;
	return asUtc - offset;
}

/** The openings of the window on the local days around `at`, each with its close. */
function openingsAround(at: number, window: SendWindow) {
	const from = minutesOf(window.from);
	const length = (((minutesOf(window.to) - from) % 1440) + 1440) % 1440;
	const openings: Array<{ opens: number; closes: number }> = [];
	for (let offset = -1; offset <= 8; offset++) {
		const local = localParts(at + offset * DAY_MS, window.timeZone);
		const weekday =
			WEEKDAYS[new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay()];
		if (window.days && !window.days.includes(weekday)) continue;
		const opens = instantOf(local, from, window.timeZone);
		openings.push({ opens, closes: opens + length * MINUTE_MS });
	}
	return openings;
}

/** The first instant from `at` on inside the window (`at` itself when it is inside, or when there is none). */
export function firstOpenAt(at: number, window: CampaignRecord['window']): number {
	if (!window) return at;
	const openings = openingsAround(at, window);
	if (openings.some(({ opens, closes }) => opens <= at && at < closes)) return at;
	const next = openings.map(({ opens }) => opens).filter((opens) => opens > at);
	return next.length > 0 ? Math.min(...next) : at;
}
