import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/create-db';
import type { LanguageSegmentTable } from '../../src/db/language-segments';
import { newSegmentId } from '../../src/db/source-segments';
import { bearer, type TestTenant } from './fixtures';
import { request, type TestApi } from './test-api';

// A language's regeneration (docs/editing.md#regenerate) as a client asks for it, the completed
// project it works on (written straight into the database: segments and lines as a published
// revision 1 left them, no media), and every row it may touch.

export const LOCALE = 'es_es';

export function postRegenerate(api: TestApi, tenant: TestTenant, projectId: string, body: Record<string, unknown>, key?: string, locale = LOCALE) {
  const headers = { ...bearer(tenant.key), ...(key ? { 'idempotency-key': key } : {}) };
  return request(api.baseUrl, 'POST', `/v1/dubbing/projects/${projectId}/languages/${locale}/regenerate`, { headers, body });
}

export interface SegmentedProject {
  id: string;
  /** Source segment ids, in order. */
  sources: string[];
  /** The language's line ids, one per source segment, in order. */
  lines: string[];
}

/**
 * A completed project charged `billableSeconds`, with one completed language at revision 1: a
 * source segment per cue and one line each, published exactly as they read (`current`,
 * `rendered_text` = `text`). Each line keeps its own timing (the placement the dub gave it),
 * deliberately unlike its source's, so a quote that bills the line's seconds instead of the
 * source's is caught.
 */
export async function completedProjectWithSegments(
  db: Db,
  tenant: TestTenant,
  options: { cues: [number, number, string][]; creditsPerSecond: number; languageStatus?: 'completed' | 'dubbing'; billableSeconds?: number },
): Promise<SegmentedProject> {
  const id = randomUUID();
  const billable = options.billableSeconds ?? Math.ceil(options.cues.at(-1)![1]);
  const completed = options.languageStatus !== 'dubbing';
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('projects')
      .values({
        id,
        workspace_id: tenant.workspace.id,
        name: 'regenerate me',
        source_type: 'upload',
        source_file_name: 'regenerate-me.mp4',
        source_size_bytes: 1_000_000,
        source_locale: 'en_us',
        target_locales: [LOCALE],
        source_duration_seconds: billable - 0.4,
        status: completed ? 'completed' : 'processing',
        phase: completed ? 'completed' : 'dubbing',
        max_billable_seconds: 600,
        credits_per_second: options.creditsPerSecond,
        billable_seconds: billable,
        charged_seconds: billable,
        usage_state: 'charged',
        hold_reference: `${id}:hold`,
        transcript_source: 'machine',
        validated_at: new Date(),
        completed_at: completed ? new Date() : null,
      })
      .execute();
    await trx
      .insertInto('project_languages')
      .values({
        project_id: id,
        locale: LOCALE,
        status: options.languageStatus ?? 'completed',
        charged_seconds: billable,
        attempt_charged_seconds: billable,
        phase_message: null,
        failure_code: null,
        failure_message: null,
        title: null,
        description: null,
        drift_seconds: null,
        completed_at: completed ? new Date() : null,
      })
      .execute();
    const sources = options.cues.map(() => newSegmentId());
    const lines = options.cues.map(() => newSegmentId('lseg'));
    await trx
      .insertInto('source_segments')
      .values(options.cues.map(([start, end, text], position) => ({ id: sources[position]!, project_id: id, position, start_seconds: start, end_seconds: end, text })))
      .execute();
    await trx
      .insertInto('language_segments')
      .values(
        options.cues.map(([start, end, text], position) => ({
          id: lines[position]!,
          project_id: id,
          locale: LOCALE,
          source_segment_id: sources[position]!,
          position,
          // Placed a little later and shorter than its source, as an aligned dub may be.
          start_seconds: start + 0.1,
          end_seconds: end - 0.05,
          text: `es: ${text}`,
          status: 'current' as const,
          rendered_text: `es: ${text}`,
          clip_key: `clips/${lines[position]}.wav`,
          clip_seconds: end - start - 0.2,
          // Played from its slot's start at its own length, as the render places it
          // (src/shared/line-placement.ts): a placement that still holds, so the line is unchanged.
          placed_start_seconds: start + 0.1,
          placed_end_seconds: start + 0.1 + (end - start - 0.2),
          tempo: 1,
        })),
      )
      .execute();
    return { id, sources, lines };
  });
}

export async function updateLine(db: Db, lineId: string, changes: Partial<Omit<LanguageSegmentTable, 'id' | 'updated_at'>>): Promise<void> {
  await db.updateTable('language_segments').set(changes).where('id', '=', lineId).execute();
}

/** Every row of a workspace a regeneration may write, in a stable order, to compare before and after. */
export async function regenerationRows(api: TestApi, workspaceId: string) {
  const projects = await api.db.selectFrom('projects').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute();
  const ids = projects.map((p) => p.id);
  const ofProjects = <T>(read: (ids: string[]) => Promise<T[]>) => (ids.length === 0 ? Promise.resolve([] as T[]) : read(ids));
  return {
    projects,
    languages: await ofProjects((ids) => api.db.selectFrom('project_languages').selectAll().where('project_id', 'in', ids).orderBy('project_id').orderBy('locale').execute()),
    lines: await ofProjects((ids) => api.db.selectFrom('language_segments').selectAll().where('project_id', 'in', ids).orderBy('project_id').orderBy('position').execute()),
    regenerations: await api.db.selectFrom('language_regenerations').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').execute(),
    ledger: await api.db.selectFrom('credit_ledger').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute(),
    idempotency: await api.db.selectFrom('idempotency_keys').selectAll().where('workspace_id', '=', workspaceId).orderBy('key').execute(),
    balance: await api.db.selectFrom('credit_balances').select(['granted', 'captured', 'reserved']).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow(),
  };
}
