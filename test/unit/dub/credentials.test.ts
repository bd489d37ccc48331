import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadDubCliEnv } from '../../../src/dub/dub-env';
import { DEFAULT_BASE_URL, MissingCredentialsError, resolveCredentials } from '../../../src/dub/credentials';
import { makeTempDir, removeTempDir } from '../../helpers/media-fixtures';

describe('resolveCredentials', () => {
  let root: string;
  let nested: string;
  beforeAll(() => {
    root = makeTempDir('dub-credentials');
    mkdirSync(path.join(root, '.dev'));
    writeFileSync(path.join(root, '.dev', 'credentials.json'), JSON.stringify({ base_url: 'http://localhost:3999', api_key: 'dk_file' }));
    nested = path.join(root, 'videos', 'today');
    mkdirSync(nested, { recursive: true });
  });
  afterAll(() => removeTempDir(root));

  const none = { apiKey: null, baseUrl: null };

  it('takes flags first, then the environment, then the file, each value on its own', () => {
    expect(resolveCredentials({ apiKey: 'dk_flag', baseUrl: 'http://flag:1' }, { apiKey: 'dk_env', baseUrl: 'http://env:2' }, root)).toMatchObject({ apiKey: 'dk_flag', baseUrl: 'http://flag:1' });
    expect(resolveCredentials({}, { apiKey: 'dk_env', baseUrl: null }, root)).toMatchObject({ apiKey: 'dk_env', baseUrl: 'http://localhost:3999', from: { apiKey: 'DUB_API_KEY' } });
    expect(resolveCredentials({ baseUrl: 'http://flag:1/' }, none, root)).toMatchObject({ apiKey: 'dk_file', baseUrl: 'http://flag:1', from: { baseUrl: '--base-url' } });
  });

  it('finds .dev/credentials.json in a parent folder', () => {
    const found = resolveCredentials({}, none, nested);
    expect(found).toMatchObject({ apiKey: 'dk_file', baseUrl: 'http://localhost:3999' });
    expect(found.from.apiKey).toBe(path.join(root, '.dev', 'credentials.json'));
  });

  it('defaults the URL to the dev server and refuses to run without a key', () => {
    const bare = makeTempDir('dub-no-credentials');
    try {
      expect(resolveCredentials({}, { apiKey: 'dk_env', baseUrl: null }, bare).baseUrl).toBe(DEFAULT_BASE_URL);
      expect(() => resolveCredentials({}, none, bare)).toThrow(MissingCredentialsError);
      expect(() => resolveCredentials({}, { apiKey: 'k', baseUrl: 'ftp://x' }, bare)).toThrow(/not an http\(s\) URL/);
    } finally {
      removeTempDir(bare);
    }
  });

  it('reads DUB_API_KEY and DUB_BASE_URL from the environment, blank meaning unset', () => {
    expect(loadDubCliEnv({ DUB_API_KEY: ' dk_x ', DUB_BASE_URL: '' })).toEqual({ apiKey: 'dk_x', baseUrl: null });
  });
});
