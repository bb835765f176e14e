/** Tests run the TypeScript sources directly (ts-jest); `dist/` is what n8n loads and is tested by the e2e suite. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }] },
	testTimeout: 30000,
	// Both do nothing unless MULTICHANNEL_CONTRACT_PROXY=1 (`npm run test:contract`): the contract proxy.
	globalSetup: '<rootDir>/test/support/contract-proxy/setup.mjs',
	globalTeardown: '<rootDir>/test/support/contract-proxy/teardown.mjs',
};
