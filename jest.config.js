/** Tests run the TypeScript sources directly (ts-jest); `dist/` is what n8n loads and is tested by the e2e suite. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }] },
	testTimeout: 30000,
	// Test files run in a worker process, replaced once it holds more than this after a file. Without it, on a
	// 2-core machine jest runs every file in band, in its own process (one worker or less), and the whole
	// suite grew it to its 4 GB heap limit: it died of out-of-memory 57 minutes in.
	workerIdleMemoryLimit: '1GB',
	// Two files at a time on this 2-core machine (jest would use one: cores - 1).
	maxWorkers: 2,
	// Both do nothing unless MULTICHANNEL_CONTRACT_PROXY=1 (`npm run test:contract`): the contract proxy.
	globalSetup: '<rootDir>/test/support/contract-proxy/setup.mjs',
	globalTeardown: '<rootDir>/test/support/contract-proxy/teardown.mjs',
};
