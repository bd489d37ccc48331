// @ts-check
const tseslint = require('typescript-eslint');

const NODE_BUILTINS = require('node:module').builtinModules.filter((m) => !m.startsWith('_'));

module.exports = tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.dev/', '.test-tmp/', 'coverage/', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The `dub` CLI is for the person with a video: the typed client, pure shared modules and the
  // config reader only, never server code (no database driver, metrics or Temporal; docs/cli.md).
  // test/unit/dub/module-graph.test.ts checks the whole graph; this refuses the first step.
  ...[['src/dub/*.ts', '\\.\\./'], ['src/dub/commands/*.ts', '\\.\\./\\.\\./']].map(([files, up]) => ({
    files: [files],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: ['pg', 'kysely', 'prom-client', 'dataloader', 'koa', 'pino'].map((name) => ({ name, message: 'the dub CLI loads no server code' })),
        patterns: [
          { group: ['@temporalio/*', '@aws-sdk/*'], message: 'the dub CLI loads no server code' },
          { regex: `^${up}(?!(client|shared)(/|$)|config$)`, message: 'the dub CLI imports src/client, src/shared and src/config only (no server code)' },
        ],
      }],
    },
  })),
  {
    // Workflow code must be deterministic: it is replayed. No Node built-ins, no database, no
    // engines or storage, no activity implementations (types only), no worker/client SDK.
    files: ['src/workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [...NODE_BUILTINS.map((name) => ({ name, message: 'workflows cannot use Node built-ins' })),
            ...NODE_BUILTINS.map((name) => ({ name: `node:${name}`, message: 'workflows cannot use Node built-ins' })),
            { name: 'pg', message: 'workflows cannot touch the database; use an activity' },
            { name: 'kysely', message: 'workflows cannot touch the database; use an activity' },
            { name: '@temporalio/worker', message: 'workflow code imports @temporalio/workflow only' },
            { name: '@temporalio/client', message: 'workflow code imports @temporalio/workflow only' },
            { name: '@temporalio/activity', message: 'workflow code imports @temporalio/workflow only' }],
          patterns: [
            { group: ['**/db', '**/db/*', '**/engines', '**/engines/*', '**/storage', '**/storage/*', '**/api/*', '**/config'], message: 'workflows cannot import I/O code; call an activity' },
            { group: ['**/activities/*', '**/activities'], allowTypeImports: true, message: 'workflows import activity types only (import type)' },
          ],
        },
      ],
    },
  },
);
