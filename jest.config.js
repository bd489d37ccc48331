/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  // One real Temporal dev server, one fresh database and one workflow bundle for the whole run.
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  // After every test, the money invariant holds for the workspaces the test file created, and
  // every response the test's apps produced matched the OpenAPI document.
  setupFilesAfterEnv: ['<rootDir>/test/setup/ledger-invariant.setup.ts', '<rootDir>/test/setup/response-contract.setup.ts'],
  testTimeout: 60_000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/setup/summary-reporter.js'],
};
