import { randomUUID } from 'node:crypto';
import { projectWorkflowId } from '../../src/shared/workflow-ids';
import { bearer, type TestTenant } from './fixtures';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from './projects';
import { request, type TestApi } from './test-api';
import { waitFor } from './wait-for';

// POST /v1/dubbing/projects/{id}/languages as a client sends it, and the rows it may touch.

export function postLanguages(api: TestApi, tenant: TestTenant, projectId: string, body: Record<string, unknown>, key?: string) {
  const headers = { ...bearer(tenant.key), ...(key ? { 'idempotency-key': key } : {}) };
  return request(api.baseUrl, 'POST', `/v1/dubbing/projects/${projectId}/languages`, { headers, body });
}

/** Every row of a workspace that an addition may write, in a stable order, to compare before/after. */
export async function additionRows(api: TestApi, workspaceId: string) {
  const projects = await api.db.selectFrom('projects').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute();
  const ids = projects.map((p) => p.id);
  const languages = ids.length === 0 ? [] : await api.db.selectFrom('project_languages').selectAll().where('project_id', 'in', ids).orderBy('project_id').orderBy('locale').execute();
  return {
    projects,
    languages,
    additions: await api.db.selectFrom('language_additions').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute(),
    ledger: await api.db.selectFrom('credit_ledger').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute(),
    idempotency: await api.db.selectFrom('idempotency_keys').selectAll().where('workspace_id', '=', workspaceId).orderBy('key').execute(),
    balance: await api.db.selectFrom('credit_balances').select(['granted', 'captured', 'reserved']).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow(),
  };
}

/** The ledger entries of one project, as `kind:amount:reference-after-the-project-id`. */
export async function projectLedger(api: TestApi, projectId: string): Promise<string[]> {
  const rows = await api.db.selectFrom('credit_ledger').select(['kind', 'amount', 'reference']).where('project_id', '=', projectId).orderBy('id').execute();
  return rows.map((r) => `${r.kind}:${r.amount}:${r.reference.slice(projectId.length + 1)}`);
}

/** Waits until the project's workflow run has closed, so nothing writes to the project any more. */
export async function waitForProjectWorkflowClosed(api: TestApi, projectId: string) {
  return waitFor(
    'the project workflow to close',
    async () => {
      const described = await api.temporal.workflow.getHandle(projectWorkflowId(projectId)).describe();
      return described.status.name === 'RUNNING' ? undefined : described;
    },
    60_000,
    250,
  );
}

/** An upload project dubbed to the end on the real worker: validated, charged, completed. */
export async function dubbedProject(api: TestApi, tenant: TestTenant, clip: Buffer, overrides: Record<string, unknown> = {}) {
  const created = await createProject(api, tenant, projectBody({ source: { type: 'upload', file_name: 'clip.mp4', size_bytes: clip.length }, ...overrides }), randomUUID());
  if (created.status !== 201) throw new Error(`create failed: ${created.status} ${JSON.stringify(created.body)}`);
  const completed = await uploadAndComplete(api, tenant, created.body.data, clip);
  if (completed.status !== 200) throw new Error(`upload/complete failed: ${completed.status} ${JSON.stringify(completed.body)}`);
  const done = await waitForProjectView(api, tenant, created.body.data.id, 'project completed', (p) => ['completed', 'partially_completed', 'failed'].includes(p.status), 120_000);
  await waitForProjectWorkflowClosed(api, done.id);
  return done;
}
