import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeTempDir, removeTempDir } from '../../helpers/media-fixtures';

// The client's types are generated from the API's OpenAPI document and committed; a route or
// schema change not followed by `npm run client:generate` fails here. The generator runs as its
// own process (openapi-typescript loads ES modules jest cannot), in its --check mode.

const ROOT = path.resolve(__dirname, '..', '..', '..');
const TYPES = path.join(ROOT, 'src', 'client', 'openapi-types.ts');
const check = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/generate-client-types.ts', '--check', ...args], { cwd: ROOT, encoding: 'utf8' });

it('src/client/openapi-types.ts is what the OpenAPI document generates now (else: npm run client:generate)', () => {
  const result = check();
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
}, 60_000);

it('calls a file stale when it differs from the document by one line', () => {
  const dir = makeTempDir('client-types');
  try {
    const stale = path.join(dir, 'openapi-types.ts');
    writeFileSync(stale, readFileSync(TYPES, 'utf8').replace('"/v1/usage": {', '"/v1/usage-renamed": {'));
    const result = check('--file', stale);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('is stale: run npm run client:generate');
  } finally {
    removeTempDir(dir);
  }
}, 60_000);
