/** @type {import('jest').Config} */
const shared = {
  testEnvironment: 'node',
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  // After every test, the money invariant holds for the workspaces the test file created (when
  // a database is configured), and every response the test's apps produced matched the OpenAPI
  // document.
  setupFilesAfterEnv: ['<rootDir>/test/setup/ledger-invariant.setup.ts', '<rootDir>/test/setup/response-contract.setup.ts'],
};

module.exports = {
  // Two tiers. `make unit` runs the first alone: no database, Temporal or S3 server is started.
  // `make test` runs both; the global setup runs only when a test of its project is selected.
  projects: [
    { ...shared, displayName: 'unit', roots: ['<rootDir>/test/unit', '<rootDir>/src'] },
    {
      ...shared,
      displayName: 'integration',
      roots: ['<rootDir>/test'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/unit/'],
      // One real Temporal dev server, one fresh database and one workflow bundle for the whole run.
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
    },
  ],
  // A global option: jest ignores it inside a project.
  testTimeout: 60_000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/setup/summary-reporter.js'],
};
