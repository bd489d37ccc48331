import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { createProject, projectBody, uploadAndComplete } from '../helpers/projects';
import { request, type TestApi } from '../helpers/test-api';
import { waitFor } from '../helpers/wait-for';
import { CHAOS_CLIP_SECONDS, CHAOS_PROJECT_TIMEOUT_MS, CHAOS_PROJECTS } from './chaos-scale';

// The load every scenario puts through the real API: CHAOS_PROJECTS uploaded projects of one
// spoken clip, each dubbed into two languages, started before the fault strikes.

export const CHAOS_CPS = 10;
export const CHAOS_LOCALES = ['es_es', 'ca_es'];

export interface ChaosLoad {
  tenant: TestTenant;
  projectIds: string[];
}

/** A spoken clip of CHAOS_CLIP_SECONDS, made once per scenario by the real engines. */
export async function chaosClip(): Promise<Buffer> {
  const dir = makeTempDir('chaos-clip');
  try {
    return await spokenClip(dir, 'The river runs past the old mill, and the children wave at the boats going by.', CHAOS_CLIP_SECONDS);
  } finally {
    removeTempDir(dir);
  }
}

/** Creates the scenario's tenant and its projects, uploads and completes each. */
export async function startChaosLoad(api: TestApi, clip: Buffer, count = CHAOS_PROJECTS): Promise<ChaosLoad> {
  const tenant = await createTenant(api.db, { credits: 1_000_000, creditsPerSecond: CHAOS_CPS });
  const projectIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await createProject(
      api,
      tenant,
      projectBody({ name: `Chaos ${i + 1}`, target_locales: CHAOS_LOCALES, source: { type: 'upload', file_name: `chaos-${i + 1}.mp4`, size_bytes: clip.length } }),
    );
    if (created.status !== 201) throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`);
    const completed = await uploadAndComplete(api, tenant, created.body.data, clip);
    if (completed.status !== 200) throw new Error(`upload/complete answered ${completed.status}: ${JSON.stringify(completed.body)}`);
    projectIds.push(created.body.data.id);
  }
  return { tenant, projectIds };
}

const FINAL = ['completed', 'partially_completed', 'failed'];

/** Waits, through the API, until every project is in a final state; returns their views. */
export async function waitForChaosLoadToEnd(api: TestApi, load: ChaosLoad, timeoutMs = CHAOS_PROJECT_TIMEOUT_MS): Promise<any[]> {
  const views: any[] = [];
  let last: { status: number; body: any } | undefined;
  for (const id of load.projectIds) {
    try {
      views.push(
        await waitFor(
          `project ${id} to end`,
          async () => {
            last = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}`, { headers: bearer(load.tenant.key) });
            return last.status === 200 && FINAL.includes(last.body.data.status) ? last.body.data : undefined;
          },
          timeoutMs,
          1000,
        ),
      );
    } catch (err) {
      // Where it stopped, so a stuck scenario says which step never came back.
      const languages = last?.status === 200 ? last.body.data.languages.map((l: any) => `${l.locale}:${l.status}`).join(' ') : '';
      throw new Error(
        `${(err as Error).message}; last answer ${last?.status} ${last?.status === 200 ? `${last.body.data.status} (${last.body.data.progress?.message ?? ''}) ${languages}` : JSON.stringify(last?.body)}`,
      );
    }
  }
  return views;
}
