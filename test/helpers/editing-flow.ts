import { sql } from 'kysely';
import { createLocalEngines } from '../../src/engines';
import type { DubbingSuite } from './dubbing-suite';
import { bearer, type TestTenant } from './fixtures';
import { getProjectView, waitForProjectView } from './projects';
import { withReconcilerSchedule } from './reconciler-schedule';
import { request } from './test-api';

// The script, translation and API calls of test/integration/editing-flow.test.ts: one project,
// followed from create to its fourth revision.

/** The customer's script: three cues of 1.0, 1.5 and 0.8 seconds inside the 4-second clip. */
export const SCRIPT = [
  { start_seconds: 0.2, end_seconds: 1.2, text: 'Good morning.' },
  { start_seconds: 1.4, end_seconds: 2.9, text: 'The weather is nice today.' },
  { start_seconds: 3.1, end_seconds: 3.9, text: 'The house is quiet.' },
];
/** SCRIPT as a customer's WebVTT, with markup that is neither translated nor spoken (docs/editing.md#markup-in-a-script). */
export const SCRIPT_VTT =
  'WEBVTT\n\n00:00:00.200 --> 00:00:01.200\n<v Ana>Good morning.\n\n00:00:01.400 --> 00:00:02.900\n<v.loud Ben><i>The weather</i> is nice today.\n\n00:00:03.100 --> 00:00:03.900\nThe house is quiet.\n';
/** The customer's own Catalan, cue for cue. */
export const CATALAN = ['Bon dia.', 'Avui fa bon temps.', 'La casa és tranquil·la.'];
/** CATALAN as SubRip, its second line in italics: a tag that is not words. */
export const CATALAN_SRT = CATALAN.map((text, i) => `${i + 1}\n${srtTime(SCRIPT[i]!.start_seconds)} --> ${srtTime(SCRIPT[i]!.end_seconds)}\n${i === 1 ? `<i>${text}</i>` : text}\n`).join('\n');

export function srtTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  return `00:00:${String(Math.floor(ms / 1000)).padStart(2, '0')},${String(ms % 1000).padStart(3, '0')}`;
}

/** What the calls act on: the file's tenant and project, and the modes es_es translates with. */
export interface EditingFlowState {
  tenant: TestTenant;
  projectId: string;
  esModes: string[];
}

/** The API and database calls of the editing flow, on the project `state()` names when called. */
export function editingFlowCalls(suite: DubbingSuite, state: () => EditingFlowState) {
  const call = (method: string, path: string, body?: unknown) => request(suite.api.baseUrl, method, `/v1/dubbing/projects/${state().projectId}${path}`, { headers: bearer(state().tenant.key), body });
  const languageSegments = async (locale: string) => {
    const res = await call('GET', `/languages/${locale}/segments`);
    expect(res.status).toBe(200);
    const data = res.body.data as {
      locale: string;
      revision: number;
      segments: { id: string; source_segment_id: string; start_seconds: number; end_seconds: number; text: string; status: string; clip_url: string | null }[];
    };
    // Each clip_url is signed afresh per GET (its expiry moves with the clock): compared by the file it names.
    return { ...data, segments: data.segments.map((s) => ({ ...s, clip_url: s.clip_url && new URL(s.clip_url).pathname })) };
  };
  const captions = async (locale = 'es_es'): Promise<string> => {
    const res = await call('GET', `/download?locale=${locale}&type=subtitles&format=vtt`);
    expect(res.status).toBe(200);
    return String(res.body);
  };
  /** The dubbed WAV as a client downloads it: the redirect to a signed URL, then its bytes. */
  const audio = async (): Promise<{ location: URL; bytes: Buffer }> => {
    const res = await call('GET', '/download?locale=es_es&type=audio&format=wav');
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    return { location, bytes: await fetchBytes(location) };
  };
  const fetchBytes = async (url: URL): Promise<Buffer> => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };
  /** A VTT's cue blocks, exactly as written. */
  const vttBlocks = (vtt: string) =>
    vtt
      .split('\n\n')
      .slice(1)
      .filter((b) => b.trim() !== '');
  const esLanguage = async () => (await getProjectView(suite.api, state().tenant, state().projectId)).languages.find((l: any) => l.locale === 'es_es');
  const waitForRevision = (revision: number) =>
    waitForProjectView(suite.api, state().tenant, state().projectId, `es_es at revision ${revision}`, (p) => p.languages.find((l: any) => l.locale === 'es_es')?.revision === revision, 120_000);
  const translate = (texts: string[]) => createLocalEngines().translator.translate(texts, state().esModes);
  const regenerationRow = (id: string) => suite.api.db.selectFrom('language_regenerations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const regenerationLedger = async () =>
    await suite.api.db
      .selectFrom('credit_ledger')
      .select(['kind', 'amount', 'reference'])
      .where('project_id', '=', state().projectId)
      .where('reference', 'like', `${state().projectId}:regen:%`)
      .orderBy('id')
      .execute();
  const usageSeconds = () =>
    suite.api.db.selectFrom('project_languages').select(['charged_seconds', 'refunded_seconds']).where('project_id', '=', state().projectId).where('locale', '=', 'es_es').executeTakeFirstOrThrow();
  /**
   * Ten minutes pass for the project's regenerations: past the reconciler's grace period. All of
   * them move, so their order (which numbers their workflows) stays what it was.
   */
  const tenMinutesPass = () => sql`update language_regenerations set created_at = created_at - interval '10 minutes' where project_id = ${state().projectId}`.execute(suite.api.db);
  const reconcile = () => withReconcilerSchedule(suite.api, { workspaceId: state().tenant.workspace.id, graceSeconds: 60 }, (pass) => pass());

  return { call, languageSegments, captions, audio, fetchBytes, vttBlocks, esLanguage, waitForRevision, translate, regenerationRow, regenerationLedger, usageSeconds, tenMinutesPass, reconcile };
}
