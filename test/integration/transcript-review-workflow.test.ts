import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { getBalance } from '../../src/db/credits';
import { claimReviewUpdate, submitTranscriptUpdate, type TranscriptReviewResult } from '../../src/shared/review-contracts';
import { transcriptReviewWorkflowId } from '../../src/shared/workflow-ids';
import { consoleRun } from '../helpers/console-run';
import { runCommand } from '../helpers/run-command';
import { bearer, createTenant } from '../helpers/fixtures';
import { createProject, getProjectView, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { request, type TestApi } from '../helpers/test-api';
import { CPS, review, transcriptReviewSuite } from '../helpers/transcript-review-suite';

// Human transcript review (docs/design.md#review) on the real stack, as
// transcript-review.test.ts: the review's workflow once a review is open. The reconciler starts
// one that has none (and an overdue one expires), and a reviewer carries one through the console
// to a verified transcript that re-dubs the completed language.

let api: TestApi;
let dir: string;
let clip: Buffer;
const { reviewWorkflows, validatedProject, reviewRows } = transcriptReviewSuite((stack) => ({ api, dir, clip } = stack));

describe('the reconciler', () => {
  it('starts the workflow of an open review that has none; an overdue one is then refunded once and expires', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
    const id = await validatedProject(tenant, { billableSeconds: 30 });
    expect((await review(api, tenant, id, { max_billable_seconds: 60, preview_only: false }, randomUUID())).status).toBe(200);
    const workflowId = transcriptReviewWorkflowId(id);
    // Its run is gone (terminated from the Web UI), and its deadline has passed meanwhile.
    await api.temporal.workflow.getHandle(workflowId).terminate('lost');
    await api.db
      .updateTable('transcript_reviews')
      .set({ deadline_at: new Date(Date.now() - 1000) })
      .where('project_id', '=', id)
      .execute();

    const pass = await api.temporal.workflow.execute('reconcilerWorkflow', {
      taskQueue: api.config.temporal.taskQueue,
      workflowId: `reconcile-review-${id}`,
      args: [{ workspaceId: tenant.workspace.id, graceSeconds: 0 }],
    });
    expect(pass).toEqual({ repairs: [{ subject: workflowId, kind: 'restart_review_workflow', detail: 'review requested with no running workflow; started it again' }], failed: [] });
    expect(await api.temporal.workflow.getHandle(workflowId).result()).toEqual({ status: 'expired', redubbed: [], redubFailed: [] });
    const rows = await reviewRows(tenant, id);
    expect(rows.ledger).toEqual([
      { reference: `${id}:review:charge`, kind: 'capture', amount: 600 },
      { reference: `${id}:review:refund`, kind: 'refund', amount: 600 },
    ]);
    expect(rows.project.transcript_review_status).toBe('expired');
    // Nothing left to repair.
    const next = await api.temporal.workflow.execute('reconcilerWorkflow', {
      taskQueue: api.config.temporal.taskQueue,
      workflowId: `reconcile-review-again-${id}`,
      args: [{ workspaceId: tenant.workspace.id, graceSeconds: 0 }],
    });
    expect(next).toEqual({ repairs: [], failed: [] });
    expect((await reviewRows(tenant, id)).ledger).toEqual(rows.ledger);
  });
});

describe('a reviewer verifies the transcript', () => {
  it('claim → export → a refused file → corrected VTT → verified; the completed language is re-dubbed from it, free, revision 2', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
    const created = await createProject(api, tenant, projectBody({ source: { type: 'upload', file_name: 'clip.mp4', size_bytes: clip.length } }));
    const id = created.body.data.id as string;
    reviewWorkflows.push(transcriptReviewWorkflowId(id));
    expect((await uploadAndComplete(api, tenant, created.body.data, clip)).status).toBe(200);
    const done = await waitForProjectView(api, tenant, id, 'the project completed', (p) => p.status === 'completed', 180_000);
    expect(done.languages[0]).toMatchObject({ locale: 'es_es', status: 'completed', revision: 1 });
    const machine = await api.db.selectFrom('transcript_segments').selectAll().where('project_id', '=', id).orderBy('position').execute();
    expect(machine.map((s) => s.text).join(' ')).not.toMatch(/elephant/i);
    const firstFiles = await api.db.selectFrom('deliverables').select(['type', 'format', 'storage_key']).where('project_id', '=', id).orderBy('format').execute();
    const moneyBefore = {
      balance: await getBalance(api.db, tenant.workspace.id),
      usage: done.usage,
      ledger: await api.db.selectFrom('credit_ledger').select(['reference', 'kind', 'amount']).where('project_id', '=', id).orderBy('id').execute(),
    };

    // Requested: charged once (4 s rounds up to one minute).
    const submitted = await review(api, tenant, id, { max_billable_seconds: 60, preview_only: false }, randomUUID());
    expect(submitted.status).toBe(200);
    expect(submitted.body.data.review).toMatchObject({ billable_seconds: 60, credits: 600, charged_now_seconds: 60 });

    const queue = await consoleRun('reviews:list');
    expect(queue.code).toBe(0);
    expect(queue.out).toMatch(new RegExp(`${id}\\s+requested\\s+age `));

    const claimed = await consoleRun('reviews:claim', id, '--reviewer', 'ada');
    expect({ code: claimed.code, out: claimed.code === 0 ? '' : claimed.out }).toEqual({ code: 0, out: '' });
    expect(claimed.out).toContain(`${id}: in_review (ada,`);
    expect(await api.db.selectFrom('transcript_reviews').select(['status', 'reviewer']).where('project_id', '=', id).executeTakeFirstOrThrow()).toEqual({ status: 'in_review', reviewer: 'ada' });
    expect((await getProjectView(api, tenant, id)).transcript_review.status).toBe('in_review');
    expect((await consoleRun('reviews:claim', id, '--reviewer', 'bob')).out).toContain('the review is in_review (ada)');

    // The machine transcript, with its timings, in both formats.
    const vtt = await consoleRun('reviews:export', id, '--format', 'vtt');
    expect(vtt.code).toBe(0);
    expect(vtt.out.startsWith('WEBVTT')).toBe(true);
    // What a person pipes to a file is on stdout alone, from the real executable too.
    expect(vtt.stderr).toBe('');
    expect(vtt.stdout).toBe(vtt.out);
    const piped = await runCommand(process.execPath, ['bin/dubbing-console.js', 'reviews:export', id, '--format', 'vtt'], { cwd: path.resolve(__dirname, '..', '..') });
    expect(piped).toEqual({ code: 0, stdout: `${vtt.stdout}\n`, stderr: '' });
    for (const segment of machine) expect(vtt.out).toContain(segment.text);
    const json = await consoleRun('reviews:export', id, '--format', 'json');
    expect(JSON.parse(json.out)).toEqual({
      project_id: id,
      duration_seconds: expect.any(Number),
      cues: machine.map((s) => ({ start_seconds: s.start_seconds, end_seconds: s.end_seconds, text: s.text })),
    });

    // Invalid: the console names the cue and sends nothing; the workflow refuses it too.
    const invalid = path.join(dir, 'invalid.vtt');
    writeFileSync(invalid, 'WEBVTT\n\n00:00:00.200 --> 00:00:01.500\nGood morning.\n\n00:00:01.600 --> 00:00:09.000\nThe elephant is big.\n');
    const refused = await consoleRun('reviews:submit', id, '--file', invalid);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('cue 2 (00:00:01.600 → 00:00:09.000) ends after the source');
    expect(refused.stdout).toBe('');
    expect(refused.stderr.split('\n')).toHaveLength(1);
    expect(refused.out).toContain('nothing was submitted');
    const handle = api.temporal.workflow.getHandle(transcriptReviewWorkflowId(id));
    const outOfOrder = [
      { startSeconds: 2, endSeconds: 3, text: 'The elephant is big.' },
      { startSeconds: 1, endSeconds: 1.5, text: 'Good morning.' },
    ];
    const rejected = await handle.executeUpdate(submitTranscriptUpdate, { args: [{ reviewer: 'ada', cues: outOfOrder }] }).catch((err: unknown) => err);
    expect(rejected).toBeInstanceOf(WorkflowUpdateFailedError);
    expect((rejected as WorkflowUpdateFailedError).cause?.message).toContain('cue 2 (00:00:01.000 → 00:00:01.500) starts before cue 1 ends');
    const empty = await handle.executeUpdate(submitTranscriptUpdate, { args: [{ reviewer: 'ada', cues: [{ startSeconds: 0, endSeconds: 1, text: '  ' }] }] }).catch((err: unknown) => err);
    expect((empty as WorkflowUpdateFailedError).cause?.message).toContain('cue 1 (00:00:00.000 → 00:00:01.000) has no text');
    expect(await api.db.selectFrom('transcript_reviews').select(['status', 'verified_at']).where('project_id', '=', id).executeTakeFirstOrThrow()).toEqual({ status: 'in_review', verified_at: null });
    expect(await api.db.selectFrom('verified_transcript_segments').selectAll().where('project_id', '=', id).execute()).toEqual([]);

    // The corrected transcript, with a word the machine did not hear.
    const corrected = path.join(dir, 'corrected.vtt');
    writeFileSync(corrected, 'WEBVTT\n\n00:00:00.200 --> 00:00:01.500\nGood morning.\n\n00:00:01.600 --> 00:00:03.600\nThe elephant is big.\n');
    const verified = await consoleRun('reviews:submit', id, '--file', corrected);
    expect(verified.code).toBe(0);
    expect(verified.out).toContain(`${id}: verified at `);
    const reviewRow = await api.db.selectFrom('transcript_reviews').selectAll().where('project_id', '=', id).executeTakeFirstOrThrow();
    expect(reviewRow).toMatchObject({ status: 'verified', reviewer: 'ada', verified_at: expect.any(Date), refunded_credits: 0 });
    expect(await api.db.selectFrom('verified_transcript_segments').select(['position', 'start_seconds', 'end_seconds', 'text']).where('project_id', '=', id).orderBy('position').execute()).toEqual([
      { position: 0, start_seconds: 0.2, end_seconds: 1.5, text: 'Good morning.' },
      { position: 1, start_seconds: 1.6, end_seconds: 3.6, text: 'The elephant is big.' },
    ]);
    // The machine transcript stays as recognized.
    expect(await api.db.selectFrom('transcript_segments').selectAll().where('project_id', '=', id).orderBy('position').execute()).toEqual(machine);

    const result = (await handle.result()) as TranscriptReviewResult;
    expect(result).toEqual({ status: 'verified', redubbed: ['es_es'], redubFailed: [] });
    const redubbed = await getProjectView(api, tenant, id);
    expect(redubbed.transcript_review).toEqual({ requested: true, status: 'verified', requested_at: expect.any(String), verified_at: reviewRow.verified_at!.toISOString() });
    expect(redubbed.languages[0]).toMatchObject({ locale: 'es_es', status: 'completed', revision: 2 });
    expect(redubbed.languages[0].deliverables).toHaveLength(9); // the dubbed video, the TTML captions and the two stems included (docs/video.md, docs/captions.md, docs/audio.md#stems)

    // New captions, translated by apertium from the verified transcript.
    const captions = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}/download?locale=es_es&type=subtitles&format=vtt`, { headers: bearer(tenant.key) });
    expect(captions.status).toBe(200);
    expect(captions.body).toContain('elefante');
    const newFiles = await api.db.selectFrom('deliverables').select(['type', 'format', 'storage_key']).where('project_id', '=', id).orderBy('format').execute();
    expect(newFiles.map((f) => f.storage_key)).toEqual(firstFiles.map((f) => f.storage_key.replace('/languages/es_es/', '/languages/es_es/r2/')));
    const language = await api.db
      .selectFrom('project_languages')
      .select(['revision', 'transcript_kind', 'attempt', 'charged_seconds', 'refunded_seconds'])
      .where('project_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(language).toEqual({ revision: 2, transcript_kind: 'verified', attempt: 1, charged_seconds: 4, refunded_seconds: 0 });

    // The re-dub was free: the only new ledger entry is the review's own charge.
    expect(redubbed.usage).toEqual(moneyBefore.usage);
    expect(await api.db.selectFrom('credit_ledger').select(['reference', 'kind', 'amount']).where('project_id', '=', id).orderBy('id').execute()).toEqual([
      ...moneyBefore.ledger,
      { reference: `${id}:review:charge`, kind: 'capture', amount: 600 },
    ]);
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ ...moneyBefore.balance, captured: moneyBefore.balance.captured + 600 });

    // The workflow's history tells the story: both updates, then the re-dub.
    const history = await handle.fetchHistory();
    const accepted = history.events!.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes).map((e) => e.workflowExecutionUpdateAcceptedEventAttributes!.acceptedRequest!.input!.name);
    expect(accepted).toEqual([claimReviewUpdate.name, submitTranscriptUpdate.name]);
    const activities = history.events!.filter((e) => e.activityTaskScheduledEventAttributes).map((e) => e.activityTaskScheduledEventAttributes!.activityType!.name);
    // (findMediaQueue: the re-dub runs on a media pool that serves the language.)
    expect(activities).toEqual(['loadReview', 'claimReview', 'verifyTranscript', 'emitProjectEvents', 'planRedubs', 'findMediaQueue', 'redubLanguage', 'planRedubs', 'emitProjectEvents']);
    // Webhook events (recorded with or without endpoints): the verification, then the re-dub as a new revision.
    const events = await api.db.selectFrom('webhook_events').select(['type', 'discriminator', 'sequence', 'payload']).where('project_id', '=', id).orderBy('sequence').execute();
    expect(events.map((e) => [e.sequence, e.type])).toEqual([
      [1, 'project.validated'],
      [2, 'language.completed'],
      [3, 'project.completed'],
      [4, 'transcript_review.verified'],
      [5, 'language.completed'],
    ]);
    expect(events[4]!.discriminator).toBe('es_es:1:2');
    expect((events[3]!.payload as any).transcript_review).toMatchObject({ requested: true, status: 'verified' });
    expect((events[4]!.payload as any).languages[0]).toMatchObject({ locale: 'es_es', status: 'completed', revision: 2 });

    expect((await consoleRun('reviews:list')).out).not.toContain(id);

    // A language added after verification, through POST /languages, starts from the verified
    // transcript, at revision 1.
    const addition = await request(api.baseUrl, 'POST', `/v1/dubbing/projects/${id}/languages`, {
      headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() },
      body: { target_locales: ['ca_es'], max_billable_seconds: 600, preview_only: false },
    });
    expect(addition.status).toBe(200);
    expect(addition.body.data.addition).toMatchObject({ new_locales: ['ca_es'], preview_only: false });
    await waitForProjectView(api, tenant, id, 'ca_es dubbed', (p) => p.languages.some((l: any) => l.locale === 'ca_es' && l.status === 'completed'), 240_000);
    const catalan = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}/download?locale=ca_es&type=subtitles&format=vtt`, { headers: bearer(tenant.key) });
    expect(catalan.body).toContain('elefant');
    expect(await api.db.selectFrom('project_languages').select(['revision', 'transcript_kind']).where('project_id', '=', id).where('locale', '=', 'ca_es').executeTakeFirstOrThrow()).toEqual({
      revision: 1,
      transcript_kind: 'verified',
    });
  }, 300_000);
});
