import { randomUUID } from 'node:crypto';
import { issueApiKey } from '../../src/auth/issue-api-key';
import { createTenant } from '../helpers/fixtures';
import type { TestApi } from '../helpers/test-api';
import { linePath, linesPath, segmentPath, SPANISH, SRT, THREE, transcriptPath, transcriptsApiSuite } from '../helpers/transcripts-api';

// Reading and editing the words over HTTP (docs/editing.md#reading-and-editing), as
// transcripts-api.test.ts: each language's lines (GET, PATCH a line), the 409s while a project
// or language is busy, and tenancy and permissions on every route.

let api: TestApi;
const { call, sourceRows, lineRows, transcriptSource, newProject, completedProject, runningRegeneration } = transcriptsApiSuite((started) => (api = started));

describe('while the project is busy: 409 and nothing written', () => {
  it('a project being dubbed, a language still dubbing, or a regeneration running refuses transcript edits (project_busy)', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const processing = await completedProject(tenant, { status: 'processing', languageStatus: 'dubbing' });
    const dubbingLanguage = await completedProject(tenant, { languageStatus: 'dubbing' });
    const regenerating = await completedProject(tenant, { locales: ['es_es', 'ca_es'] });
    await runningRegeneration(tenant, regenerating.id, 'ca_es');

    for (const [fixture, message] of [
      [processing, 'The project is being dubbed; its transcript can change once it has finished.'],
      [dubbingLanguage, 'es_es is being dubbed; the transcript can change once it has finished.'],
      [regenerating, 'ca_es is being regenerated; the transcript can change once that has finished.'],
    ] as const) {
      const before = { source: await sourceRows(fixture.id), lines: await lineRows(fixture.id) };
      const put = await call(tenant, 'PUT', transcriptPath(fixture.id), { format: 'srt', content: SRT });
      expect(put.status).toBe(409);
      expect(put.body.error).toEqual({ type: 'conflict_error', code: 'project_busy', message, request_id: expect.any(String) });
      const patch = await call(tenant, 'PATCH', segmentPath(fixture.id, fixture.segments[0]!.id), { text: 'Changed.' });
      expect(patch.status).toBe(409);
      expect(patch.body.error).toMatchObject({ code: 'project_busy', message });
      expect({ source: await sourceRows(fixture.id), lines: await lineRows(fixture.id) }).toEqual(before);
      expect(await transcriptSource(fixture.id)).toBe('machine');
      // Reading is never refused.
      expect((await call(tenant, 'GET', transcriptPath(fixture.id))).status).toBe(200);
    }

    // A project being validated has no transcript yet, and cannot take one.
    await api.db.updateTable('projects').set({ status: 'validating', phase: 'validating' }).where('id', '=', dubbingLanguage.id).execute();
    const validating = await call(tenant, 'PUT', transcriptPath(dubbingLanguage.id), { format: 'srt', content: SRT });
    expect(validating.body.error).toMatchObject({ code: 'project_busy', message: 'The project is being validated; its transcript can change once it has finished.' });
  });

  it('a language line cannot change while that language is dubbed or regenerated (language_busy); other languages can', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id } = await completedProject(tenant, { locales: ['es_es', 'ca_es', 'gl_es'] });
    await api.db.updateTable('project_languages').set({ status: 'dubbing' }).where('project_id', '=', id).where('locale', '=', 'ca_es').execute();
    await runningRegeneration(tenant, id, 'gl_es');
    const lineOf = async (locale: string) => (await lineRows(id, locale))[0]!;

    const dubbing = await call(tenant, 'PATCH', linePath(id, 'ca_es', (await lineOf('ca_es')).id), { text: 'Hola.' });
    expect(dubbing.status).toBe(409);
    expect(dubbing.body.error).toMatchObject({ code: 'language_busy', message: 'ca_es is being dubbed (dubbing); its lines can change once it has finished.' });
    const regenerating = await call(tenant, 'PATCH', linePath(id, 'gl_es', (await lineOf('gl_es')).id), { text: 'Ola.' });
    expect(regenerating.status).toBe(409);
    expect(regenerating.body.error).toMatchObject({ code: 'language_busy', message: 'gl_es is being regenerated; its lines can change once that has finished.' });
    expect((await lineOf('ca_es')).status).toBe('current');
    expect((await lineOf('gl_es')).status).toBe('current');

    const free = await call(tenant, 'PATCH', linePath(id, 'es_es', (await lineOf('es_es')).id), { text: 'Hola.' });
    expect(free.status).toBe(200);
  });
});

describe("a language's segments", () => {
  it('GET lists the lines with their status and the revision; a target not started yet has none; another locale is a 404', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id, segments, lines } = await completedProject(tenant);
    await api.db.updateTable('project_languages').set({ revision: 3 }).where('project_id', '=', id).execute();
    await api.db.updateTable('language_segments').set({ status: 'stale' }).where('id', '=', lines[0]!.id).execute();

    const got = await call(tenant, 'GET', linesPath(id, 'es_es'));
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      data: {
        locale: 'es_es',
        revision: 3,
        segments: lines.map((l, i) => ({
          id: l.id,
          source_segment_id: segments[i]!.id,
          start_seconds: THREE[i]!.start_seconds,
          end_seconds: THREE[i]!.end_seconds,
          text: `${SPANISH[i]} (es_es)`,
          status: i === 0 ? 'stale' : 'current',
          clip_url: null,
          // Its source segment's speaker; no voice, as the language (made by hand here) has none.
          speaker_id: segments[i]!.speaker_id,
          voice: null,
          // Made by hand: never rendered, so nothing to report (docs/editing.md#sync-report).
          sync: null,
        })),
        sync: null,
      },
    });

    const fresh = await newProject(tenant, { target_locales: ['es_es', 'ca_es'] });
    expect((await call(tenant, 'GET', linesPath(fresh, 'ca_es'))).body).toEqual({ data: { locale: 'ca_es', revision: null, segments: [], sync: null } });
    const other = await call(tenant, 'GET', linesPath(id, 'fr_fr'));
    expect(other.status).toBe(404);
    expect(other.body.error).toMatchObject({ code: 'not_found', param: 'locale' });
  });

  it('PATCH makes a line edited with the given words; a later source edit leaves it edited', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id, segments, lines } = await completedProject(tenant);
    const patched = await call(tenant, 'PATCH', linePath(id, 'es_es', lines[0]!.id), { text: '  Hola a todos, bienvenidos a mi cocina. ' });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      data: {
        id: lines[0]!.id,
        source_segment_id: segments[0]!.id,
        start_seconds: 0.5,
        end_seconds: 3,
        text: 'Hola a todos, bienvenidos a mi cocina.',
        status: 'edited',
        clip_url: null,
        speaker_id: segments[0]!.speaker_id,
        voice: null,
        sync: null,
      },
    });
    const row = (await lineRows(id))[0]!;
    expect(row).toMatchObject({ status: 'edited', text: 'Hola a todos, bienvenidos a mi cocina.', rendered_text: `${SPANISH[0]} (es_es)` });

    const blank = await call(tenant, 'PATCH', linePath(id, 'es_es', lines[1]!.id), { text: ' ' });
    expect(blank.status).toBe(400);
    expect(blank.body.error).toMatchObject({ code: 'invalid_parameter', param: 'text' });
    expect((await lineRows(id))[1]!.status).toBe('current');

    const sourceEdit = await call(tenant, 'PATCH', segmentPath(id, segments[0]!.id), { text: 'Hello everyone, and welcome to my kitchen.' });
    expect(sourceEdit.status).toBe(200);
    expect((await lineRows(id)).map((l) => [l.status, l.text])).toEqual([
      ['edited', 'Hola a todos, bienvenidos a mi cocina.'],
      ['current', `${SPANISH[1]} (es_es)`],
      ['current', `${SPANISH[2]} (es_es)`],
    ]);
  });
});

describe('tenancy and permissions', () => {
  it("every route answers another workspace's project, segment or line with the same 404 as a missing one", async () => {
    const owner = await createTenant(api.db, { credits: 10_000 });
    const stranger = await createTenant(api.db, { credits: 10_000 });
    const { id, segments, lines } = await completedProject(owner);
    const mine = await completedProject(stranger);
    const before = { source: await sourceRows(id), lines: await lineRows(id) };

    const routes: [string, (project: string, segment: string, line: string) => string, unknown?][] = [
      ['GET', (p) => transcriptPath(p)],
      ['PUT', (p) => transcriptPath(p), { format: 'srt', content: SRT }],
      ['PATCH', (p, s) => segmentPath(p, s), { text: 'Mine now.' }],
      ['GET', (p) => linesPath(p, 'es_es')],
      ['PATCH', (p, _s, l) => linePath(p, 'es_es', l), { text: 'Mío.' }],
    ];
    const errorOf = (res: { body: any }) => ({ ...res.body.error, request_id: undefined });
    for (const [method, path, body] of routes) {
      const foreign = await call(stranger, method, path(id, segments[0]!.id, lines[0]!.id), body);
      const missing = await call(stranger, method, path(randomUUID(), segments[0]!.id, lines[0]!.id), body);
      expect([method, foreign.status]).toEqual([method, 404]);
      expect(errorOf(foreign)).toEqual(errorOf(missing));
      expect(errorOf(foreign)).toEqual({ type: 'not_found_error', code: 'not_found', message: 'No such project.', param: 'project_id', request_id: undefined });
    }
    // The owner's segment and line ids, asked for under the stranger's own project: not found either.
    for (const [method, path, body] of [
      ['PATCH', segmentPath(mine.id, segments[0]!.id), { text: 'x' }],
      ['PATCH', linePath(mine.id, 'es_es', lines[0]!.id), { text: 'x' }],
    ] as const) {
      const res = await call(stranger, method, path, body);
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'not_found', message: 'No such segment.', param: 'segment_id' });
    }
    expect({ source: await sourceRows(id), lines: await lineRows(id) }).toEqual(before);
    expect(await transcriptSource(id)).toBe('machine');
  });

  it('reading needs dubbing:read and changing needs dubbing:write', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id, segments, lines } = await completedProject(tenant);
    const issue = async (permissions: ('dubbing:read' | 'dubbing:write')[]) =>
      (await issueApiKey(api.db, { workspaceId: tenant.workspace.id, kind: 'project', userId: null, name: 'scoped', permissions })).key;
    const reader = await issue(['dubbing:read']);
    const writer = await issue(['dubbing:write']);

    for (const [method, path, body] of [
      ['PUT', transcriptPath(id), { format: 'srt', content: SRT }],
      ['PATCH', segmentPath(id, segments[0]!.id), { text: 'x' }],
      ['PATCH', linePath(id, 'es_es', lines[0]!.id), { text: 'x' }],
    ] as const) {
      const res = await call(reader, method, path, body);
      expect([path, res.status, res.body.error.code]).toEqual([path, 403, 'permission_denied']);
    }
    for (const path of [transcriptPath(id), linesPath(id, 'es_es')]) {
      expect((await call(writer, 'GET', path)).status).toBe(403);
      expect((await call(reader, 'GET', path)).status).toBe(200);
    }
    expect(await lineRows(id)).toEqual(lines);
  });
});
