// @ts-check
const tseslint = require('typescript-eslint');

const layers = require('./eslint/layers');

module.exports = tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.dev/', '.test-tmp/', 'coverage/', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // A promise returned from inside try/finally without await lets the finally run first (a
      // render's work dir removed while it still mixes): await it there.
      '@typescript-eslint/return-await': ['error', 'error-handling-correctness-only'],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Which way the layers point, per folder (workflows: deterministic code only).
  ...layers,
);
