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
	// code that finds an element and then filters it out of its array expects). The per-record map is made
	// when a nested object is first read: a record loaded and never read costs one Proxy and its handler.
	const known = proxiesOf.get(onWrite)?.get(raw);
	if (known) return known as T;
	const proxy = new Proxy(raw, new Tracking(onWrite));
	rawOf.set(proxy, raw);
	return proxy;
}

/** The Proxy handler of one record: its methods shared by every record, `onWrite` its own. */
class Tracking<T extends object> implements ProxyHandler<T> {
	constructor(private readonly onWrite: () => void) {}

	get(target: T, property: string | symbol, receiver: unknown) {
		const value = Reflect.get(target, property, receiver) as unknown;
		return isPlainData(value) ? nested(value, this.onWrite) : value;
	}

	set(target: T, property: string | symbol, value: unknown) {
		this.onWrite();
		return Reflect.set(target, property, untracked(value));
	}

	deleteProperty(target: T, property: string | symbol) {
		this.onWrite();
		return Reflect.deleteProperty(target, property);
	}

	defineProperty(target: T, property: string | symbol, descriptor: PropertyDescriptor) {
		this.onWrite();
		return Reflect.defineProperty(target, property, descriptor);
	}
}

/** A nested object of a record, tracked, the same Proxy each time it is read. */
function nested<T extends object>(raw: T, onWrite: () => void): T {
	let seen = proxiesOf.get(onWrite);
	if (!seen) proxiesOf.set(onWrite, (seen = new WeakMap()));
	const known = seen.get(raw);
	if (known) return known as T;
	const proxy = tracked(raw, onWrite);
	seen.set(raw, proxy);
	return proxy;
}

/** A deep copy of JSON data (records are JSON data: that is how they are kept). */
export function copyJson<T>(value: T): T {
	return JSON.parse(JSON.stringify(value)) as T;
}
