/**
 * Records that report their own changes. The store hands out records wrapped in a Proxy: any write to one,
 * at any depth (a field, a nested object, an array's push), first calls `onWrite` with no arguments, so the
 * store knows which records a request or a timer changed without every caller having to say so. That is
 * what lets a save write only the changed records, and undo them when they cannot be made durable.
 */

/** The plain object behind each record handed out, so that a record stored inside another is stored plain. */
const rawOf = new WeakMap<object, object>();
/** The Proxy already made for each object, per record (its `onWrite`). */
const proxiesOf = new WeakMap<() => void, WeakMap<object, object>>();

function isPlainData(value: unknown): value is object {
	if (typeof value !== 'object' || value === null) return false;
	const prototype = Object.getPrototypeOf(value) as unknown;
	return Array.isArray(value) || prototype === Object.prototype || prototype === null;
}

/** The plain object behind a tracked record, or the value itself. */
export function untracked<T>(value: T): T {
	return (typeof value === 'object' && value !== null ? (rawOf.get(value) ?? value) : value) as T;
}

/** `raw` seen through a Proxy that calls `onWrite` before each change to it or to anything inside it. */
export function tracked<T extends object>(raw: T, onWrite: () => void): T {
	// One Proxy per object and record, so that a nested object read twice is the same object (=== holds, as
	// code that finds an element and then filters it out of its array expects).
	let seen = proxiesOf.get(onWrite);
	if (!seen) proxiesOf.set(onWrite, (seen = new WeakMap()));
	const known = seen.get(raw);
	if (known) return known as T;
	const proxy = new Proxy(raw, {
		get(target, property, receiver) {
			const value = Reflect.get(target, property, receiver) as unknown;
			return isPlainData(value) ? tracked(value, onWrite) : value;
		},
		set(target, property, value) {
			onWrite();
			return Reflect.set(target, property, untracked(value));
		},
		deleteProperty(target, property) {
			onWrite();
			return Reflect.deleteProperty(target, property);
		},
		defineProperty(target, property, descriptor) {
			onWrite();
			return Reflect.defineProperty(target, property, descriptor);
		},
	});
	rawOf.set(proxy, raw);
	seen.set(raw, proxy);
	return proxy;
}

/** A deep copy of JSON data (records are JSON data: that is how they are kept). */
export function copyJson<T>(value: T): T {
	return JSON.parse(JSON.stringify(value)) as T;
}
