// The npm registry this project is built against serves only the Linux builds of some platform packages
// (rollup's and unrs-resolver's native bindings). `npm install` then leaves the other platforms' optional
// dependencies out of package-lock.json, and `npm ci` refuses such a lock ("Missing: … from lock file").
// This adds the missing optional platform packages as lock entries with their os/cpu/libc, so `npm ci`
// knows them and skips them on this platform, as it does with any normal lock. Run after `npm install`:
//   node dev/package/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;

const OS = ['android', 'darwin', 'freebsd', 'openbsd', 'openharmony', 'win32', 'linux', 'netbsd', 'sunos', 'aix'];
const CPU = [
	['arm64', 'arm64'],
	['aarch64', 'arm64'],
	['x64', 'x64'],
	['ia32', 'ia32'],
	['loong64', 'loong64'],
	['ppc64', 'ppc64'],
	['riscv64', 'riscv64'],
	['s390x', 's390x'],
	['arm', 'arm'],
	['wasm32', 'wasm32'],
];

function platformOf(name) {
	const base = name.split('/').pop();
	const parts = base.split('-');
	const os = OS.find((candidate) => parts.includes(candidate));
	const cpu = CPU.find(([token]) => parts.some((part) => part === token || part.startsWith(token)))?.[1];
	if (!os || !cpu) return undefined;
	const libc = os === 'linux' ? (parts.some((part) => part.startsWith('musl')) ? ['musl'] : ['glibc']) : undefined;
	return { os: [os], cpu: [cpu], ...(libc ? { libc } : {}) };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
	for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
		const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
		if (packages[nested] || packages[`node_modules/${name}`]) continue;
		const platform = platformOf(name);
		if (!platform || !/^\d+\.\d+\.\d+/.test(range)) continue;
		packages[`node_modules/${name}`] = {
			version: range,
			...(entry.dev ? { dev: true } : {}),
			optional: true,
			...platform,
		};
		added++;
	}
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: added ${added} optional platform entries`);
