import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/create-db';
import { releaseHold } from '../../src/db/credits';
import { bearer, type TestTenant } from './fixtures';
import { request, type TestApi } from './test-api';
import { putPart, splitParts } from './upload-client';
import { waitFor } from './wait-for';

export function projectBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Test project',
    source_locale: 'en_us',
    target_locales: ['es_es'],
    max_billable_seconds: 60,
    source: { type: 'upload', file_name: 'clip.mp4', size_bytes: 1000 },
    ...overrides,
  };
}

export async function createProject(api: TestApi, tenant: TestTenant, body: Record<string, unknown>, key = randomUUID()) {
  return request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: { ...bearer(tenant.key), 'idempotency-key': key }, body });
}

/** Uploads every part through the signed URLs of the transfer block, then completes. */
export async function uploadAndComplete(api: TestApi, tenant: TestTenant, project: { id: string; transfer: any }, bytes: Buffer) {
  const parts = splitParts(bytes, project.transfer.part_size_bytes);
  const completed = [];
  for (const part of project.transfer.parts) {
    const res = await putPart(part.url, parts[part.part_number - 1]!);
    if (res.status !== 200) throw new Error(`part ${part.part_number} upload failed: ${res.status} ${JSON.stringify(res.body)}`);
    completed.push({ part_number: part.part_number, etag: res.etag! });
  }
  return request(api.baseUrl, 'POST', `/v1/dubbing/projects/${project.id}/upload/complete`, { headers: bearer(tenant.key), body: { parts: completed } });
}

/** Counts what a workspace has written, to prove a refused request changed nothing. */
export async function workspaceRowCounts(api: TestApi, workspaceId: string) {
  const count = async (table: 'projects' | 'credit_ledger' | 'idempotency_keys' | 'credit_holds') => {
    const row = await api.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const balance = await api.db.selectFrom('credit_balances').select(['granted', 'captured', 'reserved']).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
  return { projects: await count('projects'), ledger: await count('credit_ledger'), idempotency: await count('idempotency_keys'), holds: await count('credit_holds'), balance };
}

/** GET /v1/dubbing/projects/{id} as the tenant sees it. */
export async function getProjectView(api: TestApi, tenant: TestTenant, id: string): Promise<any> {
  return (await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}`, { headers: bearer(tenant.key) })).body.data;
}

/** Polls the project until `test` holds, and returns that view. */
export function waitForProjectView(api: TestApi, tenant: TestTenant, id: string, what: string, test: (project: any) => boolean, timeoutMs = 90_000): Promise<any> {
  return waitFor(
    what,
    async () => {
      const project = await getProjectView(api, tenant, id);
      return test(project) ? project : undefined;
    },
    timeoutMs,
    300,
  );
}

/**
 * Moves an API-created project on by hand to `processing` and charged (`billableSeconds`), as
 * the workflows leave it, money included: its hold is released, as the real charge releases what
 * it does not capture. A hold left reserved would outlive the test: the reconciler of a suite
 * running beside it may start the project's workflow and end the project, and the ledger check
 * after the run then finds a final project still holding credits.
 */
export async function markChargedByHand(db: Db, projectId: string, billableSeconds = 7): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const project = await trx
      .updateTable('projects')
      .set({ status: 'processing', phase: 'dubbing', usage_state: 'charged', billable_seconds: billableSeconds, charged_seconds: billableSeconds })
      .where('id', '=', projectId)
      .returning(['workspace_id', 'hold_reference'])
      .executeTakeFirstOrThrow();
    await releaseHold(trx, { workspaceId: project.workspace_id, holdReference: project.hold_reference, reference: `${projectId}:release`, projectId });
  });
}
