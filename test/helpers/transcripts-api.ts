import { randomUUID } from 'node:crypto';
import { newSegmentId, replaceSourceSegments, type Cue } from '../../src/db/source-segments';
import { bearer, type TestTenant } from './fixtures';
import { createProject, projectBody } from './projects';
import { request, startTestApi, type TestApi } from './test-api';

// The setup of the transcripts-api test files (docs/editing.md#reading-and-editing), on the real
// app and PostgreSQL. Completed projects are written straight to the tables, as the workflows
// leave them; no workflow runs there.

export const DURATION = 12;
export const THREE: Cue[] = [
  { start_seconds: 0.5, end_seconds: 3, text: 'Hello everyone and welcome to the kitchen.' },
  { start_seconds: 3.5, end_seconds: 6, text: 'Today we cook rice.' },
  { start_seconds: 7, end_seconds: 9.5, text: 'With fresh vegetables.' },
];
export const SPANISH = ['Hola a todos y bienvenidos a la cocina.', 'Hoy cocinamos arroz.', 'Con verduras frescas.'];

export const transcriptPath = (id: string) => `/v1/dubbing/projects/${id}/transcript`;
export const segmentPath = (id: string, segmentId: string) => `/v1/dubbing/projects/${id}/transcript/segments/${segmentId}`;
export const linesPath = (id: string, locale: string) => `/v1/dubbing/projects/${id}/languages/${locale}/segments`;
export const linePath = (id: string, locale: string, lineId: string) => `${linesPath(id, locale)}/${lineId}`;

export const SRT = [
  '1',
  '00:00:01,000 --> 00:00:02,000',
  'One.',
  '',
  '2',
  '00:00:03,000 --> 00:00:04,000',
  'Two.',
  '',
  '3',
  '00:00:05,000 --> 00:00:06,500',
  'Three, <i>in</i> two',
  'lines.',
  '',
].join('\n');
export const REVERSED_SRT = ['1', '00:00:01,000 --> 00:00:02,000', 'One.', '', '2', '00:00:03,000 --> 00:00:04,000', 'Two.', '', '3', '00:00:07,000 --> 00:00:06,500', 'Three.', ''].join('\n');

/**
 * Starts the file's API before its tests (handing it to `onStart`) and closes it after them.
 * Answers the calls and table reads of the transcripts API, on that API.
 */
export function transcriptsApiSuite(onStart: (api: TestApi) => void) {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
    onStart(api);
  });
  afterAll(async () => {
    await api.close();
  });

  const call = (tenant: TestTenant | string, method: string, path: string, body?: unknown) =>
    request(api.baseUrl, method, path, { headers: bearer(typeof tenant === 'string' ? tenant : tenant.key), ...(body === undefined ? {} : { body }) });
  const sourceRows = (projectId: string) => api.db.selectFrom('source_segments').selectAll().where('project_id', '=', projectId).orderBy('position').execute();
  const lineRows = (projectId: string, locale = 'es_es') =>
    api.db.selectFrom('language_segments').selectAll().where('project_id', '=', projectId).where('locale', '=', locale).orderBy('position').execute();
  const transcriptSource = async (projectId: string) => (await api.db.selectFrom('projects').select('transcript_source').where('id', '=', projectId).executeTakeFirstOrThrow()).transcript_source;

  /** A new upload project, awaiting its upload, created through the API. */
  async function newProject(tenant: TestTenant, overrides: Record<string, unknown> = {}): Promise<string> {
    const created = await createProject(api, tenant, projectBody(overrides));
    expect(created.status).toBe(201);
    return created.body.data.id;
  }

  /**
   * A project as the workflows leave a completed one: charged, a machine transcript of three
   * segments, and for each locale one completed language (revision 1) with a `current` line per
   * segment.
   */
  async function completedProject(tenant: TestTenant, options: { locales?: string[]; status?: 'completed' | 'processing'; languageStatus?: 'completed' | 'dubbing' } = {}) {
    const locales = options.locales ?? ['es_es'];
    const id = randomUUID();
    await api.db
      .insertInto('projects')
      .values({
        id,
        workspace_id: tenant.workspace.id,
        name: 'Cooking rice',
        source_type: 'upload',
        source_file_name: 'rice.mp4',
        source_size_bytes: 1_000_000,
        source_duration_seconds: DURATION,
        source_locale: 'en_us',
        target_locales: locales,
        status: options.status ?? 'completed',
        phase: options.status === 'processing' ? 'dubbing' : 'completed',
        max_billable_seconds: 60,
        credits_per_second: 10,
        billable_seconds: DURATION,
        usage_state: 'charged',
        hold_reference: `${id}:hold`,
      })
      .execute();
    await api.db
      .insertInto('project_languages')
      .values(locales.map((locale) => ({ project_id: id, locale, status: options.languageStatus ?? ('completed' as const), percent: 100 })))
      .execute();
    const segments = await api.db.transaction().execute((trx) => replaceSourceSegments(trx, id, THREE, 'machine'));
    for (const locale of locales) {
      await api.db
        .insertInto('language_segments')
        .values(
          segments.map((s, i) => ({
            id: newSegmentId('lseg'),
            project_id: id,
            locale,
            source_segment_id: s.id,
            position: i,
            start_seconds: s.start_seconds,
            end_seconds: s.end_seconds,
            text: `${SPANISH[i]} (${locale})`,
            status: 'current' as const,
            rendered_text: `${SPANISH[i]} (${locale})`,
          })),
        )
        .execute();
    }
    return { id, segments, lines: await lineRows(id, locales[0]) };
  }

  async function runningRegeneration(tenant: TestTenant, projectId: string, locale: string): Promise<void> {
    await api.db
      .insertInto('language_regenerations')
      .values({
        id: randomUUID(),
        project_id: projectId,
        workspace_id: tenant.workspace.id,
        locale,
        status: 'running',
        segments: 1,
        billable_seconds: 3,
        credits: 30,
        max_billable_seconds: 60,
        from_revision: 1,
        idempotency_key: randomUUID(),
      })
      .execute();
  }
  return { call, sourceRows, lineRows, transcriptSource, newProject, completedProject, runningRegeneration };
}
