import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { newSegmentId } from '../../src/db/source-segments';
import { dubEnv, runDub } from '../helpers/dub-cli';
import { createTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir } from '../helpers/media-fixtures';
import { createProject, projectBody } from '../helpers/projects';
import { startTestApi, type TestApi } from '../helpers/test-api';

// `dub transcript` and `dub segments` as a person runs them (a child process on the real API and
// PostgreSQL): show the transcript, replace it with a file, show a language's lines.

let api: TestApi;
let dir: string;
beforeAll(async () => {
  api = await startTestApi();
  dir = makeTempDir('dub-transcript-');
});
afterAll(async () => {
  await api.close();
  removeTempDir(dir);
});

it("dub transcript shows, then --set replaces from an .srt file; a refused file says why and changes nothing; dub segments lists a language's lines", async () => {
  const tenant = await createTenant(api.db, { credits: 10_000 });
  const env = dubEnv({ apiKey: tenant.key, baseUrl: api.baseUrl });
  const created = await createProject(api, tenant, projectBody({ target_locales: ['es_es'] }));
  const id: string = created.body.data.id;

  const empty = await runDub(['transcript', id], { cwd: dir, env });
  expect([empty.code, empty.stdout.trim()]).toEqual([0, `Project ${id} has no transcript yet.`]);

  writeFileSync(path.join(dir, 'mine.srt'), '1\n00:00:00,500 --> 00:00:02,000\nHello there.\n\n2\n00:00:02,500 --> 00:00:04,250\nSecond line,\nwrapped.\n');
  const set = await runDub(['transcript', id, '--set', 'mine.srt'], { cwd: dir, env });
  expect(set.code).toBe(0);
  const rows = await api.db.selectFrom('source_segments').selectAll().where('project_id', '=', id).orderBy('position').execute();
  expect(rows.map((r) => r.text)).toEqual(['Hello there.', 'Second line,\nwrapped.']);
  expect(set.stdout).toContain('Replaced the transcript with mine.srt (srt).');
  expect(set.stdout).toContain(`Transcript of ${id} (supplied, 2 segments)`);
  expect(set.stdout).toMatch(new RegExp(`${rows[1]!.id}\\s+2\\.500\\s+4\\.250\\s+Second line, / wrapped\\.`));

  writeFileSync(
    path.join(dir, 'broken.json'),
    JSON.stringify([
      { start_seconds: 0, end_seconds: 2, text: 'A' },
      { start_seconds: 1, end_seconds: 3, text: 'B' },
    ]),
  );
  const refused = await runDub(['transcript', id, '--set', 'broken.json'], { cwd: dir, env });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(
    'error: cue 2 (00:00:01.000 → 00:00:03.000) starts before cue 1 ends (00:00:02.000); cues must be in order and must not overlap. (invalid_transcript, HTTP 400, param content',
  );
  expect(await api.db.selectFrom('source_segments').selectAll().where('project_id', '=', id).orderBy('position').execute()).toEqual(rows);

  // A language's lines, written as a dub leaves them (the project itself stays as it is: it holds credits).
  await api.db.insertInto('project_languages').values({ project_id: id, locale: 'es_es', status: 'completed', percent: 100 }).execute();
  await api.db
    .insertInto('language_segments')
    .values(
      rows.map((r, i) => ({
        id: newSegmentId('lseg'),
        project_id: id,
        locale: 'es_es',
        source_segment_id: r.id,
        position: i,
        start_seconds: r.start_seconds,
        end_seconds: r.end_seconds,
        text: i === 0 ? 'Hola.' : 'Segunda línea.',
        status: i === 0 ? ('edited' as const) : ('stale' as const),
        // The first played at 1.2× past the second's start (2.5 s), which started 0.4 s late.
        placed_start_seconds: i === 0 ? 0.5 : 2.9,
        placed_end_seconds: i === 0 ? 2.9 : 4.25,
        tempo: i === 0 ? 1.2 : 1,
      })),
    )
    .execute();
  const segments = await runDub(['segments', id, '--locale', 'es_es'], { cwd: dir, env });
  expect(segments.code).toBe(0);
  expect(segments.stdout).toContain(`es_es of ${id} (revision 1, 2 lines, 1 stale)`);
  expect(segments.stdout).toMatch(/0\.500\s+2\.000\s+edited\s+Hola\./);
  expect(segments.stdout).toMatch(/2\.500\s+4\.250\s+stale\s+Segunda línea\./);
  expect(segments.stdout).toContain('Sync: 1 of 2 lines faster than 1.15× (fastest 1.2×), latest start 0.400 s after its source, 1 ran into the next line.');

  const noLocale = await runDub(['segments', id], { cwd: dir, env });
  expect(noLocale.code).toBe(2);
  expect(noLocale.stderr).toContain("required option '--locale <locale>' not specified");
});
