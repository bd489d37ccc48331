import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDubbingClient, type Glossary, type GlossaryEntry, type GlossaryListItem } from '../../../src/client';
import { glossaryId } from '../../../src/dub/arguments';
import type { DubContext } from '../../../src/dub/dub-context';
import { runDub } from '../../../src/dub/main';
import { buildDubProgram } from '../../../src/dub/program';

// `dub glossary` and its subcommands (docs/cli.md#dub-glossary): how each command line is read
// into its API call, on the real client with a scripted fetch, what it prints, and the command
// lines and files refused before anything is sent (exit code 2).

const PROJECT = '0b0e5a4e-6f0c-4f57-9a1e-2f1d3c4b5a69';
const GLOSSARY = 'gls_k3v9q2m7x1c8b4n6';
const entries: GlossaryEntry[] = [
  { term: 'Rice Cooker Pro', case_sensitive: true, keep: true, translations: {}, pronunciations: { es_es: 'ráis kúker pro' } },
  { term: 'steam basket', case_sensitive: false, keep: false, translations: { ca_es: 'cistella de vapor', es_es: 'cesta de vapor' }, pronunciations: {} },
];
const glossary: Glossary = {
  id: GLOSSARY,
  object: 'glossary',
  name: 'Kitchen',
  source_locale: 'en_us',
  version: 1,
  latest_version: 2,
  entries,
  created_at: '2026-12-06T09:00:00.000Z',
  updated_at: '2026-12-06T09:00:00.000Z',
  deleted_at: null,
};
const item: GlossaryListItem = {
  id: GLOSSARY,
  object: 'glossary',
  name: 'Kitchen',
  source_locale: 'en_us',
  version: 2,
  entry_count: 2,
  created_at: glossary.created_at,
  updated_at: '2026-12-06T10:00:00.000Z',
};

/** Runs one `dub` command line in `cwd` on a client whose fetch answers `body` and records what was asked. */
async function run(argv: string[], body: unknown, cwd = '/') {
  const lines: string[] = [];
  const requests: { method: string; url: string; body: unknown }[] = [];
  const ctx: DubContext = {
    out: { tty: false, stream: process.stdout, line: (t) => lines.push(t), error: (t) => lines.push(`ERR ${t}`) },
    cwd,
    credentials: () => ({ apiKey: 'k', baseUrl: 'http://api.test', from: { apiKey: '', baseUrl: '' } }),
    client: () =>
      createDubbingClient({
        baseUrl: 'http://api.test',
        apiKey: 'k',
        fetch: async (request) => {
          const text = await request.text();
          requests.push({ method: request.method, url: request.url, body: text ? JSON.parse(text) : undefined });
          return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
        },
      }),
  };
  await buildDubProgram(ctx).parseAsync(argv, { from: 'user' });
  return { lines, requests };
}

const base = 'http://api.test/v1/glossaries';

it('creates a glossary from a JSON file, its entries alone or with name and source locale', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dub-glossary-'));
  writeFileSync(path.join(dir, 'kitchen.json'), JSON.stringify([{ term: 'Rice Cooker Pro', keep: true }]));
  writeFileSync(path.join(dir, 'full.json'), JSON.stringify({ name: 'Full', source_locale: 'en_gb', entries: [{ term: 'wok', keep: true }] }));
  const created = await run(['glossary', 'create', 'kitchen.json'], { data: glossary }, dir);
  expect(created.requests).toEqual([{ method: 'POST', url: base, body: { name: 'kitchen', source_locale: 'en_us', entries: [{ term: 'Rice Cooker Pro', keep: true }] } }]);
  expect(created.lines).toEqual([`Created glossary Kitchen (${GLOSSARY}), version 1, 2 entries. Pin it: dub glossary pin <project-id> ${GLOSSARY}`]);
  const full = await run(['glossary', 'create', path.join(dir, 'full.json'), '--name', 'Mine'], { data: glossary });
  expect(full.requests[0]!.body).toEqual({ name: 'Mine', source_locale: 'en_gb', entries: [{ term: 'wok', keep: true }] });
  const updated = await run(['glossary', 'update', GLOSSARY, 'full.json'], { data: { ...glossary, version: 2, name: 'Full' } }, dir);
  expect(updated.requests).toEqual([{ method: 'PUT', url: `${base}/${GLOSSARY}`, body: { name: 'Full', entries: [{ term: 'wok', keep: true }] } }]);
  expect(updated.lines).toEqual([`Full (${GLOSSARY}) is at version 2, 2 entries.`]);
});

it('lists, shows a version, deletes, pins and unpins', async () => {
  const listed = await run(['glossary', 'list'], { data: [item], page: { has_more: false, next_cursor: null } });
  expect(listed.requests).toEqual([{ method: 'GET', url: base, body: undefined }]);
  expect(listed.lines).toEqual(['ID                    NAME     SOURCE  VERSION  ENTRIES  UPDATED', `${GLOSSARY}  Kitchen  en_us   2        2        2026-12-06T10:00:00.000Z`]);

  const shown = await run(['glossary', 'get', GLOSSARY, '1'], { data: glossary });
  expect(shown.requests).toEqual([{ method: 'GET', url: `${base}/${GLOSSARY}?version=1`, body: undefined }]);
  expect(shown.lines).toEqual([
    `Kitchen (${GLOSSARY}), en_us, version 1 (latest is 2), 2 entries.`,
    'TERM             CASE   KEEP  TRANSLATIONS                                   PRONUNCIATIONS',
    'Rice Cooker Pro  exact  yes   -                                              es_es=ráis kúker pro',
    'steam basket     any    no    ca_es=cistella de vapor, es_es=cesta de vapor  -',
  ]);
  const json = await run(['glossary', 'get', GLOSSARY, '--json'], { data: glossary });
  expect(JSON.parse(json.lines.join('\n'))).toEqual(glossary);

  const deleted = await run(['glossary', 'delete', GLOSSARY], { data: { id: GLOSSARY, object: 'glossary', deleted: true } });
  expect(deleted.requests).toEqual([{ method: 'DELETE', url: `${base}/${GLOSSARY}`, body: undefined }]);

  const pinned = await run(['glossary', 'pin', PROJECT, GLOSSARY, '2'], { data: { project_id: PROJECT, glossary: { id: GLOSSARY, version: 2 }, stale_lines: { ca_es: 0, es_es: 3 } } });
  expect(pinned.requests).toEqual([{ method: 'PUT', url: `http://api.test/v1/dubbing/projects/${PROJECT}/glossary`, body: { id: GLOSSARY, version: 2 } }]);
  expect(pinned.lines).toEqual([`Project ${PROJECT} applies ${GLOSSARY} version 2.`, `es_es: 3 lines stale. Dub them again: dub regenerate ${PROJECT} --locale es_es`]);
  const unpinned = await run(['glossary', 'unpin', PROJECT], { data: { project_id: PROJECT, glossary: null, stale_lines: { es_es: 0 } } });
  expect(unpinned.requests).toEqual([{ method: 'DELETE', url: `http://api.test/v1/dubbing/projects/${PROJECT}/glossary`, body: undefined }]);
  expect(unpinned.lines).toEqual([`Project ${PROJECT} applies no glossary.`, 'No line changes.']);
});

it('refuses a malformed command line or glossary file before sending anything (exit code 2)', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dub-glossary-'));
  writeFileSync(path.join(dir, 'broken.json'), '{"entries": [');
  writeFileSync(path.join(dir, 'object.json'), '{"terms": []}');
  const refused = async (argv: string[]) => {
    const errors: string[] = [];
    const code = await runDub(argv, {
      out: { tty: false, stream: process.stdout, line: () => undefined, error: (t) => errors.push(t) },
      env: { DUB_API_KEY: 'k', DUB_BASE_URL: 'http://127.0.0.1:9' },
      cwd: dir,
    });
    return { code, errors: errors.join('\n') };
  };
  expect(await refused(['glossary', 'get', 'kitchen'])).toMatchObject({ code: 2, errors: expect.stringContaining('Expected a glossary id') });
  expect(await refused(['glossary', 'get', GLOSSARY, 'two'])).toMatchObject({ code: 2 });
  expect(await refused(['glossary', 'pin', 'not-a-uuid', GLOSSARY])).toMatchObject({ code: 2, errors: expect.stringContaining('Expected a UUID') });
  expect(await refused(['glossary', 'create', 'missing.json'])).toMatchObject({ code: 2, errors: expect.stringContaining('Cannot read missing.json') });
  expect(await refused(['glossary', 'create', 'broken.json'])).toMatchObject({ code: 2, errors: expect.stringContaining('broken.json is not JSON') });
  expect(await refused(['glossary', 'update', GLOSSARY, 'object.json'])).toMatchObject({ code: 2, errors: expect.stringContaining('must hold {"entries": [...]}') });
  expect(await refused(['glossary', 'create', 'broken.json', '--source-locale', 'English'])).toMatchObject({ code: 2, errors: expect.stringContaining('Expected a locale') });
});

it('reads glossary ids and refuses what is not one', () => {
  expect(glossaryId(GLOSSARY)).toBe(GLOSSARY);
  expect(() => glossaryId('gls_')).toThrow('Expected a glossary id');
  expect(() => glossaryId('spk_ab12')).toThrow('Expected a glossary id');
});
