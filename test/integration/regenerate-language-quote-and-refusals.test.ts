import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { regenerationChargeReference } from '../../src/shared/ledger-references';
import { regenerationWorkflowId } from '../../src/shared/workflow-ids';
import { dubEnv, runDub } from '../helpers/dub-cli';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { getProjectView } from '../helpers/projects';
import { CPS, CUES, projectWithStaleLine as staleLineProject, regenerateLanguageSuite, workflowStatus as workflowStatusOf } from '../helpers/regenerate-language-suite';
import { completedProjectWithSegments, LOCALE, postRegenerate, regenerationRows, updateLine } from '../helpers/regenerations';
import type { TestApi } from '../helpers/test-api';

// POST /v1/dubbing/projects/{id}/languages/{locale}/regenerate (docs/editing.md#regenerate), as
// regenerate-language.test.ts (same stack, no worker on the task queue): what the quote bills,
// a regeneration with nothing to do, the refusals that write nothing, and `dub regenerate`.

let api: TestApi;
const started = regenerateLanguageSuite((started) => (api = started));
const workflowStatus = (workflowId: string) => workflowStatusOf(api, workflowId);
const projectWithStaleLine = (tenant: TestTenant) => staleLineProject(api, tenant);

describe('the quote', () => {
  it('bills stale lines, lines whose text differs from what was played, and new source segments, at their source seconds', async () => {
    const tenant = await createTenant(api.db, { credits: 1000, creditsPerSecond: CPS });
    const cues: [number, number, string][] = [...CUES, [9.0, 9.6, 'Enjoy.']];
    const project = await completedProjectWithSegments(api.db, tenant, { cues, creditsPerSecond: CPS });
    // Unchanged: line 0. Edited by a person, not yet played: line 1 (3.05 s of source).
    await updateLine(api.db, project.lines[1]!, { status: 'edited', text: 'es: Bienvenidos a la cocina.' });
    // Never played: line 2 (3.45 s).
    await updateLine(api.db, project.lines[2]!, { rendered_text: null });
    // A source segment with no line (a replaced transcript's new segment): 0.6 s.
    await api.db.deleteFrom('language_segments').where('id', '=', project.lines[3]!).execute();
    // A supplied cue that overlaps no source segment, edited: its own 0.5 s.
    // A line left behind by a replaced transcript (stale, no source): dropped, not billed.
    await api.db
      .insertInto('language_segments')
      .values([
        {
          id: `lseg_orphan${randomUUID().slice(0, 8)}`,
          project_id: project.id,
          locale: LOCALE,
          source_segment_id: null,
          position: 10,
          start_seconds: 9.7,
          end_seconds: 10.2,
          text: 'es: ¡Ya!',
          status: 'edited',
          rendered_text: 'es: Ya',
        },
        {
          id: `lseg_gone${randomUUID().slice(0, 8)}`,
          project_id: project.id,
          locale: LOCALE,
          source_segment_id: null,
          position: 11,
          start_seconds: 10.3,
          end_seconds: 15,
          text: 'es: viejo',
          status: 'stale',
          rendered_text: 'es: viejo',
        },
      ])
      .execute();
    const res = await postRegenerate(api, tenant, project.id, { max_billable_seconds: 60 });
    expect(res.status).toBe(200);
    // 3.05 + 3.45 + 0.6 + 0.5 = 7.6 s → 8.
    expect(res.body.data.regeneration).toEqual({ preview_only: true, segments: 4, billable_seconds: 8, credits: 80, max_billable_seconds: 60, within_limit: true, charged_now_seconds: 0 });
  });

  it('sums to the millisecond before rounding up, so float noise never adds a second', async () => {
    const tenant = await createTenant(api.db, { credits: 1000, creditsPerSecond: CPS });
    // As doubles, 1.4 + (5.7 − 1.4) + (6.0 − 5.7) is 6.000000000000001.
    const project = await completedProjectWithSegments(api.db, tenant, {
      cues: [
        [0, 1.4, 'One.'],
        [1.4, 5.7, 'Two.'],
        [5.7, 6.0, 'Three.'],
      ],
      creditsPerSecond: CPS,
    });
    await api.db.updateTable('language_segments').set({ status: 'stale' }).where('project_id', '=', project.id).execute();
    const res = await postRegenerate(api, tenant, project.id, { max_billable_seconds: 60 });
    expect(res.body.data.regeneration).toMatchObject({ segments: 3, billable_seconds: 6, credits: 60 });
  });
});

describe('nothing changes', () => {
  it('with nothing stale or edited: 200 with 0 segments, nothing charged, no row, no workflow, the key not kept', async () => {
    const tenant = await createTenant(api.db, { credits: 1000, creditsPerSecond: CPS });
    const project = await completedProjectWithSegments(api.db, tenant, { cues: CUES, creditsPerSecond: CPS });
    const before = await regenerationRows(api, tenant.workspace.id);
    const preview = await postRegenerate(api, tenant, project.id, { max_billable_seconds: 1 });
    expect(preview.status).toBe(200);
    expect(preview.body.data.regeneration).toEqual({ preview_only: true, segments: 0, billable_seconds: 0, credits: 0, max_billable_seconds: 1, within_limit: true, charged_now_seconds: 0 });
    const paid = await postRegenerate(api, tenant, project.id, { max_billable_seconds: 1, preview_only: false }, randomUUID());
    expect(paid.status).toBe(200);
    expect(paid.body.data.regeneration).toEqual({ preview_only: false, segments: 0, billable_seconds: 0, credits: 0, max_billable_seconds: 1, within_limit: true, charged_now_seconds: 0 });
    expect(paid.body.data.project).toEqual(await getProjectView(api, tenant, project.id));
    expect(await regenerationRows(api, tenant.workspace.id)).toEqual(before);
    expect(await workflowStatus(regenerationWorkflowId(project.id, LOCALE, 1))).toBe('not started');
  });
});

describe('refusals that write nothing', () => {
  it('402 when the credits cannot pay the quote', async () => {
    const tenant = await createTenant(api.db, { credits: 39, creditsPerSecond: CPS });
    const project = await projectWithStaleLine(tenant);
    const before = await regenerationRows(api, tenant.workspace.id);
    const res = await postRegenerate(api, tenant, project.id, { max_billable_seconds: 60, preview_only: false }, randomUUID());
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ type: 'payment_required_error', code: 'insufficient_credits' });
    expect(res.body.error.message).toContain('costs 40 credits');
    expect(res.body.error.message).toContain('39 are available');
    expect(await regenerationRows(api, tenant.workspace.id)).toEqual(before);
    expect(await workflowStatus(regenerationWorkflowId(project.id, LOCALE, 1))).toBe('not started');
  });

  it('409 language_not_completed for a language still being dubbed, preview or paid', async () => {
    const tenant = await createTenant(api.db, { credits: 1000, creditsPerSecond: CPS });
    const project = await completedProjectWithSegments(api.db, tenant, { cues: CUES, creditsPerSecond: CPS, languageStatus: 'dubbing' });
    await updateLine(api.db, project.lines[0]!, { status: 'stale' });
    const before = await regenerationRows(api, tenant.workspace.id);
    for (const [body, key] of [
      [{ max_billable_seconds: 60 }, undefined],
      [{ max_billable_seconds: 60, preview_only: false }, randomUUID()],
    ] as const) {
      const res = await postRegenerate(api, tenant, project.id, body, key);
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ type: 'conflict_error', code: 'language_not_completed' });
    }
    expect(await regenerationRows(api, tenant.workspace.id)).toEqual(before);
  });

  it('409 language_not_completed for a project not validated yet (its languages have no rows), preview or paid', async () => {
    const tenant = await createTenant(api.db, { credits: 1000, creditsPerSecond: CPS });
    const project = await completedProjectWithSegments(api.db, tenant, { cues: CUES, creditsPerSecond: CPS });
    await api.db.deleteFrom('project_languages').where('project_id', '=', project.id).execute();
    await api.db
      .updateTable('projects')
      .set({ status: 'awaiting_upload', phase: 'uploading', usage_state: 'pending_validation', billable_seconds: null, charged_seconds: 0, completed_at: null })
      .where('id', '=', project.id)
      .execute();
    const before = await regenerationRows(api, tenant.workspace.id);
    for (const [body, key] of [
      [{ max_billable_seconds: 60 }, undefined],
      [{ max_billable_seconds: 60, preview_only: false }, randomUUID()],
    ] as const) {
      const res = await postRegenerate(api, tenant, project.id, body, key);
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ type: 'conflict_error', code: 'language_not_completed', message: `The ${LOCALE} dub is not started; it can be regenerated once it is completed.` });
    }
    expect(await regenerationRows(api, tenant.workspace.id)).toEqual(before);
  });

  it("404, the same as an unknown id, for another workspace's project and for a locale the project does not have", async () => {
    const owner = await createTenant(api.db, { credits: 1000, creditsPerSecond: CPS });
    const stranger = await createTenant(api.db, { credits: 1000, creditsPerSecond: CPS });
    const project = await projectWithStaleLine(owner);
    const before = [await regenerationRows(api, owner.workspace.id), await regenerationRows(api, stranger.workspace.id)];
    const unknown = await postRegenerate(api, stranger, randomUUID(), { max_billable_seconds: 60 });
    expect(unknown.status).toBe(404);
    for (const body of [{ max_billable_seconds: 60 }, { max_billable_seconds: 60, preview_only: false }]) {
      const res = await postRegenerate(api, stranger, project.id, body, randomUUID());
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { ...unknown.body.error, request_id: res.body.error.request_id } });
    }
    const noSuchLocale = await postRegenerate(api, owner, project.id, { max_billable_seconds: 60, preview_only: false }, randomUUID(), 'pt_pt');
    expect(noSuchLocale.status).toBe(404);
    expect(noSuchLocale.body.error).toMatchObject({ type: 'not_found_error', code: 'not_found', param: 'locale' });
    expect([await regenerationRows(api, owner.workspace.id), await regenerationRows(api, stranger.workspace.id)]).toEqual(before);
  });

  it.each([
    ['max_billable_seconds missing', {}, 'missing_parameter', 'max_billable_seconds'],
    ['max_billable_seconds zero', { max_billable_seconds: 0 }, 'invalid_parameter', 'max_billable_seconds'],
    ['max_billable_seconds fractional', { max_billable_seconds: 1.5 }, 'invalid_parameter', 'max_billable_seconds'],
    ['max_billable_seconds over 2^31 − 1', { max_billable_seconds: 2_147_483_648 }, 'invalid_parameter', 'max_billable_seconds'],
    ['preview_only not a boolean', { max_billable_seconds: 60, preview_only: 'no' }, 'invalid_parameter', 'preview_only'],
    ['an unknown field', { max_billable_seconds: 60, segments: 1 }, 'unknown_parameter', 'segments'],
  ])('400 for bad input (%s), naming the field', async (_name, body, code, param) => {
    const tenant = await createTenant(api.db, { credits: 1000, creditsPerSecond: CPS });
    const project = await projectWithStaleLine(tenant);
    const before = await regenerationRows(api, tenant.workspace.id);
    const res = await postRegenerate(api, tenant, project.id, body, randomUUID());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code, param });
    expect(await regenerationRows(api, tenant.workspace.id)).toEqual(before);
  });
});

describe('dub regenerate', () => {
  it('shows the quote and charges nothing without --yes; with --yes pays exactly the quote, once', async () => {
    const tenant = await createTenant(api.db, { credits: 1000, creditsPerSecond: CPS });
    const project = await projectWithStaleLine(tenant);
    const work = mkdtempSync(path.join(tmpdir(), 'dub-regenerate-'));
    const env = dubEnv({ apiKey: tenant.key, baseUrl: api.baseUrl });
    try {
      const before = await regenerationRows(api, tenant.workspace.id);
      const quote = await runDub(['regenerate', project.id, '--locale', LOCALE], { cwd: work, env });
      expect(quote.code).toBe(0);
      expect(quote.stdout).toMatch(/Lines to redo\s+1\n/);
      expect(quote.stdout).toMatch(/Billable\s+4 s/);
      expect(quote.stdout).toMatch(/Credits\s+40\n/);
      expect(quote.stdout).toContain('Nothing charged. Run it again with --yes to accept this quote.');
      expect(await regenerationRows(api, tenant.workspace.id)).toEqual(before);

      const over = await runDub(['regenerate', project.id, '--locale', LOCALE, '--max-seconds', '3', '--yes'], { cwd: work, env });
      expect(over.code).not.toBe(0);
      expect(over.stderr).toContain('over --max-seconds 3; nothing was charged');
      expect(await regenerationRows(api, tenant.workspace.id)).toEqual(before);

      const paid = await runDub(['regenerate', project.id, '--locale', LOCALE, '--yes'], { cwd: work, env });
      expect({ code: paid.code, stderr: paid.stderr }).toEqual({ code: 0, stderr: '' });
      started.push(regenerationWorkflowId(project.id, LOCALE, 1));
      expect(paid.stdout).toContain(`Regenerating 1 line(s) of ${LOCALE}; charged 4 s. Revision 2 is published when it is done.`);
      const after = await regenerationRows(api, tenant.workspace.id);
      expect(after.regenerations).toHaveLength(1);
      expect(after.ledger.slice(before.ledger.length).map((e) => [e.kind, e.amount, e.reference])).toEqual([['capture', 40, regenerationChargeReference(project.id, after.regenerations[0]!.id)]]);
      expect(await workflowStatus(regenerationWorkflowId(project.id, LOCALE, 1))).toBe('RUNNING');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);
});
