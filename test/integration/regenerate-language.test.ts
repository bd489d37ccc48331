import { randomUUID } from 'node:crypto';
import { regenerationChargeReference } from '../../src/shared/ledger-references';
import { regenerationWorkflowId } from '../../src/shared/workflow-ids';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { getProjectView } from '../helpers/projects';
import { CPS, projectWithStaleLine as staleLineProject, regenerateLanguageSuite, startInput as startInputOf, workflowStatus as workflowStatusOf } from '../helpers/regenerate-language-suite';
import { LOCALE, postRegenerate, regenerationRows, updateLine, type SegmentedProject } from '../helpers/regenerations';
import type { TestApi } from '../helpers/test-api';

// POST /v1/dubbing/projects/{id}/languages/{locale}/regenerate (docs/editing.md#regenerate) on the
// real app over HTTP, real PostgreSQL and the real Temporal dev server: the quote, the charge
// through the ledger, the regeneration row, the workflow start, and everything that must change
// nothing. No worker runs this file's task queue, so a started regeneration stays running: what
// it does is the workflow's own suite; here only that it was started, once, under its id.
// This file: one stale line regenerated, from the quote to the next regeneration. The quote's
// arithmetic and the refusals are regenerate-language-quote-and-refusals.test.ts.

let api: TestApi;
const started = regenerateLanguageSuite((started) => (api = started));
const workflowStatus = (workflowId: string) => workflowStatusOf(api, workflowId);
const startInput = (workflowId: string) => startInputOf(api, workflowId);
const projectWithStaleLine = (tenant: TestTenant) => staleLineProject(api, tenant);

describe('one stale line', () => {
  let tenant: TestTenant;
  let project: SegmentedProject;
  const key = randomUUID();
  let committed: { status: number; headers: Headers; body: any };
  const workflowId = () => regenerationWorkflowId(project.id, LOCALE, 1);

  beforeAll(async () => {
    tenant = await createTenant(api.db, { credits: 1000, creditsPerSecond: CPS });
    project = await projectWithStaleLine(tenant);
  });

  it("a preview quotes exactly that line's source seconds, answers the project as GET shows it, and writes nothing", async () => {
    const before = await regenerationRows(api, tenant.workspace.id);
    const res = await postRegenerate(api, tenant, project.id, { max_billable_seconds: 60 });
    expect(res.status).toBe(200);
    expect(res.body.data.regeneration).toEqual({ preview_only: true, segments: 1, billable_seconds: 4, credits: 40, max_billable_seconds: 60, within_limit: true, charged_now_seconds: 0 });
    expect(res.body.data.project).toEqual(await getProjectView(api, tenant, project.id));
    // A key on a preview is ignored: nothing is recorded under it.
    const keyed = await postRegenerate(api, tenant, project.id, { max_billable_seconds: 3, preview_only: true }, randomUUID());
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('idempotent-replayed')).toBeNull();
    expect(keyed.body.data.regeneration).toMatchObject({ preview_only: true, segments: 1, billable_seconds: 4, within_limit: false, charged_now_seconds: 0 });
    expect(await regenerationRows(api, tenant.workspace.id)).toEqual(before);
    expect(await workflowStatus(workflowId())).toBe('not started');
  });

  it('a paid request without an Idempotency-Key is refused with 400 naming the header, writing nothing', async () => {
    const before = await regenerationRows(api, tenant.workspace.id);
    const res = await postRegenerate(api, tenant, project.id, { max_billable_seconds: 60, preview_only: false });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'idempotency_key_missing', param: 'Idempotency-Key' });
    expect(await regenerationRows(api, tenant.workspace.id)).toEqual(before);
  });

  it('over its max_billable_seconds answers 200 with the quote and charges, records and starts nothing (the key is not kept)', async () => {
    const before = await regenerationRows(api, tenant.workspace.id);
    const overKey = randomUUID();
    const res = await postRegenerate(api, tenant, project.id, { max_billable_seconds: 3, preview_only: false }, overKey);
    expect(res.status).toBe(200);
    expect(res.body.data.regeneration).toEqual({ preview_only: false, segments: 1, billable_seconds: 4, credits: 40, max_billable_seconds: 3, within_limit: false, charged_now_seconds: 0 });
    expect(res.body.data.project).toEqual(await getProjectView(api, tenant, project.id));
    expect(await regenerationRows(api, tenant.workspace.id)).toEqual(before);
    expect(await workflowStatus(workflowId())).toBe('not started');
    // A corrected retry may reuse the key: it was not kept.
    const again = await postRegenerate(api, tenant, project.id, { max_billable_seconds: 2, preview_only: false }, overKey);
    expect(again.status).toBe(200);
    expect(again.body.data.regeneration).toMatchObject({ max_billable_seconds: 2, within_limit: false });
  });

  it('committed, charges exactly the quote through the ledger, records the regeneration and starts its workflow', async () => {
    const before = await regenerationRows(api, tenant.workspace.id);
    committed = await postRegenerate(api, tenant, project.id, { max_billable_seconds: 4, preview_only: false }, key);
    expect(committed.status).toBe(200);
    started.push(workflowId());
    expect(committed.body.data.regeneration).toEqual({ preview_only: false, segments: 1, billable_seconds: 4, credits: 40, max_billable_seconds: 4, within_limit: true, charged_now_seconds: 4 });

    const after = await regenerationRows(api, tenant.workspace.id);
    expect(after.regenerations).toHaveLength(1);
    const row = after.regenerations[0]!;
    expect(row).toMatchObject({
      project_id: project.id,
      workspace_id: tenant.workspace.id,
      locale: LOCALE,
      status: 'running',
      segments: 1,
      billable_seconds: 4,
      credits: 40,
      max_billable_seconds: 4,
      from_revision: 1,
      to_revision: null,
      refunded_credits: 0,
      failure_code: null,
      idempotency_key: key,
      completed_at: null,
    });
    // One ledger entry, under the regeneration's own reference, and the balance moved by exactly it.
    expect(after.ledger.slice(before.ledger.length).map((e) => ({ kind: e.kind, amount: e.amount, reference: e.reference, project_id: e.project_id }))).toEqual([
      { kind: 'capture', amount: 40, reference: regenerationChargeReference(project.id, row.id), project_id: project.id },
    ]);
    expect(regenerationChargeReference(project.id, row.id)).toBe(`${project.id}:regen:${row.id}`);
    expect(after.balance).toEqual({ ...before.balance, captured: before.balance.captured + 40 });
    // Usage counts it, on the project and on its language; the lines are the workflow's to change.
    expect(after.projects[0]).toMatchObject({ charged_seconds: 9 + 4, usage_state: 'charged', status: 'completed' });
    expect(after.languages[0]).toMatchObject({ charged_seconds: 9 + 4, attempt_charged_seconds: 9, status: 'completed', revision: 1 });
    expect(after.lines).toEqual(before.lines);
    expect(after.idempotency).toHaveLength(before.idempotency.length + 1);
    expect(after.idempotency.find((k) => k.key === key)).toMatchObject({ recovery_point: 'finished', response_status: 200 });

    expect(committed.body.data.project).toEqual(await getProjectView(api, tenant, project.id));
    expect(committed.body.data.project.usage).toMatchObject({ charged_seconds: 13 });

    expect(await workflowStatus(workflowId())).toBe('RUNNING');
    expect(await startInput(workflowId())).toEqual({ regenerationId: row.id, projectId: project.id, locale: LOCALE });
    const described = await api.temporal.workflow.getHandle(workflowId()).describe();
    expect(described.type).toBe('regenerateLanguageWorkflow');
    expect(described.taskQueue).toBe(api.config.temporal.taskQueue);
  });

  it('replayed with the same key, answers the same bytes and charges nothing more', async () => {
    const before = await regenerationRows(api, tenant.workspace.id);
    const replay = await postRegenerate(api, tenant, project.id, { preview_only: false, max_billable_seconds: 4 }, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(JSON.stringify(replay.body)).toBe(JSON.stringify(committed.body));
    expect(await regenerationRows(api, tenant.workspace.id)).toEqual(before);
    const runs = await api.temporal.workflow.list({ query: `WorkflowId = '${workflowId()}'` });
    let count = 0;
    for await (const _ of runs) count += 1;
    expect(count).toBe(1);
  });

  it('the same key with another body is refused with 422, writing nothing', async () => {
    const before = await regenerationRows(api, tenant.workspace.id);
    const res = await postRegenerate(api, tenant, project.id, { max_billable_seconds: 5, preview_only: false }, key);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'idempotency_key_reused', param: 'Idempotency-Key' });
    expect(await regenerationRows(api, tenant.workspace.id)).toEqual(before);
  });

  it('while it runs, another regeneration (or its quote) is refused with 409 regeneration_in_progress, writing nothing', async () => {
    await updateLine(api.db, project.lines[2]!, { status: 'stale' });
    const before = await regenerationRows(api, tenant.workspace.id);
    const paid = await postRegenerate(api, tenant, project.id, { max_billable_seconds: 60, preview_only: false }, randomUUID());
    expect(paid.status).toBe(409);
    expect(paid.body.error).toMatchObject({ type: 'conflict_error', code: 'regeneration_in_progress' });
    const preview = await postRegenerate(api, tenant, project.id, { max_billable_seconds: 60 });
    expect(preview.status).toBe(409);
    expect(preview.body.error).toMatchObject({ type: 'conflict_error', code: 'regeneration_in_progress' });
    expect(await regenerationRows(api, tenant.workspace.id)).toEqual(before);
  });

  it('once it ended, the next regeneration is number 2, from the revision it published', async () => {
    // What the workflow does when it publishes (its own suite): the row completes, revision + 1.
    await api.db.updateTable('language_regenerations').set({ status: 'completed', to_revision: 2, completed_at: new Date() }).where('project_id', '=', project.id).execute();
    await api.db.updateTable('project_languages').set({ revision: 2 }).where('project_id', '=', project.id).execute();
    await updateLine(api.db, project.lines[1]!, { status: 'current' });
    const res = await postRegenerate(api, tenant, project.id, { max_billable_seconds: 4, preview_only: false }, randomUUID());
    expect(res.status).toBe(200);
    started.push(regenerationWorkflowId(project.id, LOCALE, 2));
    // Only the line made stale since: 3.45 s of source.
    expect(res.body.data.regeneration).toMatchObject({ segments: 1, billable_seconds: 4, credits: 40, charged_now_seconds: 4 });
    const rows = await api.db.selectFrom('language_regenerations').selectAll().where('project_id', '=', project.id).orderBy('created_at').execute();
    expect(rows.map((r) => [r.status, r.from_revision])).toEqual([
      ['completed', 1],
      ['running', 2],
    ]);
    expect(await workflowStatus(regenerationWorkflowId(project.id, LOCALE, 2))).toBe('RUNNING');
    expect(await startInput(regenerationWorkflowId(project.id, LOCALE, 2))).toMatchObject({ regenerationId: rows[1]!.id });
    expect((await regenerationRows(api, tenant.workspace.id)).balance.captured).toBe(80);
  });
});
