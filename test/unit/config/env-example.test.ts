import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../../src/config';

// .env.example is the list of settings an operator reads: every variable src/config/ reads (and
// the dub CLI's src/dub/dub-env.ts) is there, each with its default (or empty: unset), and
// docker-compose.yml passes each through.

const ROOT = path.resolve(__dirname, '../../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** The files that read the environment: the service's config readers and the dub CLI's. */
const READERS = [
  ...readdirSync(path.join(ROOT, 'src/config'))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => `src/config/${file}`),
  'src/dub/dub-env.ts',
];

/** Every variable name they read: `read.<kind>('NAME', …)` and the dub CLI's `value('NAME')`. */
function variablesConfigReads(): string[] {
  const names = [
    ...READERS.map(read)
      .join('\n')
      .matchAll(/\b(?:read\.[a-zA-Z]+|value)\(\s*'([A-Z][A-Z0-9_]*)'/g),
  ].map((m) => m[1]!);
  return [...new Set(names)].sort();
}

function envExample(): Map<string, string> {
  const entries = read('.env.example')
    .split('\n')
    .map((line) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [m[1]!, m[2]!] as const);
  return new Map(entries);
}

/** The keys of docker-compose.yml's shared `x-app-environment` block (api, worker, migrate). */
function composeAppEnvironment(): string[] {
  const text = read('docker-compose.yml');
  const block = text.slice(text.indexOf('x-app-environment:'));
  const end = block.search(/\n\S/); // the next top-level key
  return [...block.slice(0, end).matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!);
}

/** Turns on every conditional part of the configuration, so a value read only there is compared too. */
const EVERYTHING_ON: Record<string, string> = {
  STORAGE_DRIVER: 's3',
  S3_BUCKET: 'dubbing',
  ASR_ENGINE_URL: 'http://asr.test/v1',
  ASR_ENGINE_LOCALES: 'en_us',
  MT_ENGINE_URL: 'http://mt.test',
  TTS_ENGINE_URL: 'http://tts.test/v1',
  TTS_ENGINE_VOICES: 'de_de=voice',
};

describe('.env.example', () => {
  const variables = variablesConfigReads();

  it('finds the variables src/config/ and the dub CLI read (the scan itself works)', () => {
    expect(variables).toEqual(expect.arrayContaining(['DATABASE_URL', 'PORT', 'S3_BUCKET', 'WORKER_HEALTH_PORT', 'DUB_API_KEY']));
    expect(variables.length).toBeGreaterThan(80);
  });

  it('lists every variable src/config/ and the dub CLI read, and none they do not', () => {
    expect([...envExample().keys()].sort()).toEqual(variables);
  });

  it('gives each variable its default: setting the value written there changes nothing', () => {
    const differing: string[] = [];
    for (const [name, value] of envExample()) {
      if (value === '') continue;
      const base = Object.fromEntries(Object.entries(EVERYTHING_ON).filter(([key]) => key !== name));
      if (JSON.stringify(loadConfig({ ...base, [name]: value })) !== JSON.stringify(loadConfig(base))) differing.push(`${name}=${value}`);
    }
    expect(differing).toEqual([]);
  });

  it('is passed through by docker-compose.yml to the api, the worker and migrate', () => {
    // Not the dub CLI's (a client, not a service) nor the test suites' fault injection (refused outside NODE_ENV=test).
    const serviceSettings = variables.filter((name) => !name.startsWith('DUB_') && !name.startsWith('DUBBING_TEST_'));
    const passed = new Set(composeAppEnvironment());
    expect(passed.size).toBeGreaterThan(10);
    expect(serviceSettings.filter((name) => !passed.has(name))).toEqual([]);
  });
});
