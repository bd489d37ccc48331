import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// Where `dub` finds its API key and the API's URL, each on its own, first found wins:
// the --api-key / --base-url flags, then DUB_API_KEY / DUB_BASE_URL, then the
// .dev/credentials.json `make dev` writes (looked for in the current directory and its parents,
// so any folder of a clone works), then, for the URL only, the dev server's address.

export const DEFAULT_BASE_URL = 'http://localhost:3000';
export const CREDENTIALS_FILE = path.join('.dev', 'credentials.json');

export interface Credentials {
  apiKey: string;
  baseUrl: string;
  /** Where each came from, for `dub --help` style diagnostics and error messages. */
  from: { apiKey: string; baseUrl: string };
}

export class MissingCredentialsError extends Error {}

type Pair = { apiKey: string | null; baseUrl: string | null };

/** The nearest .dev/credentials.json from `dir` up to the root, or null. */
export function findCredentialsFile(dir: string): string | null {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const candidate = path.join(current, CREDENTIALS_FILE);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(current) === current) return null;
  }
}

function readCredentialsFile(file: string): Pair {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { api_key?: unknown; base_url?: unknown };
    return {
      apiKey: typeof parsed.api_key === 'string' && parsed.api_key ? parsed.api_key : null,
      baseUrl: typeof parsed.base_url === 'string' && parsed.base_url ? parsed.base_url : null,
    };
  } catch (err) {
    throw new MissingCredentialsError(`${file} is not readable JSON (${err instanceof Error ? err.message : String(err)}).`);
  }
}

export function resolveCredentials(flags: Partial<Pair>, env: Pair, cwd: string): Credentials {
  const file = findCredentialsFile(cwd);
  const stored: Pair = file ? readCredentialsFile(file) : { apiKey: null, baseUrl: null };
  const pick = (name: keyof Pair, flag: string, variable: string): [string | null, string] => {
    if (flags[name]) return [flags[name]!, flag];
    if (env[name]) return [env[name], variable];
    if (stored[name]) return [stored[name], file!];
    return [null, ''];
  };
  const [apiKey, keyFrom] = pick('apiKey', '--api-key', 'DUB_API_KEY');
  const [baseUrl, urlFrom] = pick('baseUrl', '--base-url', 'DUB_BASE_URL');
  if (!apiKey) {
    throw new MissingCredentialsError(`No API key: pass --api-key, set DUB_API_KEY, or run \`make dev\` in the repository (it writes ${CREDENTIALS_FILE}).`);
  }
  const url = baseUrl ?? DEFAULT_BASE_URL;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('protocol');
  } catch {
    throw new MissingCredentialsError(`The base URL "${url}" (from ${urlFrom}) is not an http(s) URL.`);
  }
  return { apiKey, baseUrl: url.replace(/\/+$/, ''), from: { apiKey: keyFrom, baseUrl: baseUrl ? urlFrom : 'the default' } };
}
