import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { commitRegeneration } from '../../src/api/regenerations/commit-regeneration';
import { detectCapabilities } from '../../src/engines/capabilities';
import { getBalance } from '../../src/db/credits';
import { parseVtt } from '../../src/publish/captions';
import { regenerationChargeReference, regenerationRefundReference } from '../../src/shared/ledger-references';
import { regenerationWorkflowId } from '../../src/shared/workflow-ids';
import { dubbingSuite } from '../helpers/dubbing-suite';
import { CATALAN, CATALAN_SRT, editingFlowCalls, SCRIPT, SCRIPT_VTT } from '../helpers/editing-flow';
import { countingSpeech, countingTranslator, recognizerProcesses } from '../helpers/engine-counters';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { gatedBlobStore } from '../helpers/gated-blob-store';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { postRegenerate, regenerationRows } from '../helpers/regenerations';
import { request } from '../helpers/test-api';
import { waitFor } from '../helpers/wait-for';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

// The editing flow of docs/editing.md, through the API on the real stack (real Koa over HTTP, a
// real worker with the real engines, PostgreSQL, the Temporal dev server), one project from
// create to its fourth revision: a supplied script dubbed without speech recognition and a
// supplied translation dubbed as given; a source edit that makes only its own lines stale and is
// quoted and charged for exactly its seconds; a regeneration that speaks one line, keeps every
// other cue byte for byte and never shows a download half of it; an edited line that outlives a
// later source edit; replays; and the reconciler settling a regeneration its workflow left.

const CPS = 10;
const suite = dubbingSuite('editing-flow-', 'Good morning. The weather is nice today. The house is quiet.');

let tenant: TestTenant;
let projectId: string;
let sourceIds: string[];
let lineIds: string[];
let esModes: string[];
let receiver: WebhookReceiver;
/** The es_es captions of each revision, by revision. */
const published: Record<number, string> = {};

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  esModes = (await detectCapabilities()).locales.find((l) => l.locale === 'es_es')!.translationModes!;
});
afterAll(async () => {
  await receiver?.close();
});

const { call, languageSegments, captions, audio, fetchBytes, vttBlocks, esLanguage, waitForRevision, translate, regenerationRow, regenerationLedger, usageSeconds, tenMinutesPass, reconcile } =
  editingFlowCalls(suite, () => ({ tenant, projectId, esModes }));
describe('a project with its own script', () => {
  it('runs no speech recognition, translates exactly the supplied cues, and dubs a supplied translation as given', async () => {
    tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
    const translation = countingTranslator();
    const speech = countingSpeech();
    await suite.worker.use({ translator: translation.translator, tts: speech.tts });
    const recognizedBefore = await recognizerProcesses();

    const created = await createProject(
      suite.api,
      tenant,
      projectBody({
        target_locales: ['es_es', 'ca_es'],
        source: { type: 'upload', file_name: 'clip.mp4', size_bytes: suite.clip.length },
        transcript: { format: 'vtt', content: SCRIPT_VTT },
        translations: { ca_es: { format: 'srt', content: CATALAN_SRT } },
      }),
    );
    expect(created.status).toBe(201);
    projectId = created.body.data.id;
    const transcript = await call('GET', '/transcript');
    expect(transcript.body.data).toMatchObject({ project_id: projectId, source: 'supplied' });
    expect(transcript.body.data.segments.map(({ id: _, speaker_id: _who, speaker: _label, ...cue }: any) => cue)).toEqual(SCRIPT);
    sourceIds = transcript.body.data.segments.map((s: any) => s.id);

    expect((await uploadAndComplete(suite.api, tenant, created.body.data, suite.clip)).status).toBe(200);
    const done = await waitForProjectView(suite.api, tenant, projectId, 'the project completed', (p) => p.status === 'completed' || p.status === 'failed', 180_000);
    expect(done).toMatchObject({
      status: 'completed',
      languages: [
        { locale: 'ca_es', status: 'completed', revision: 1 },
        { locale: 'es_es', status: 'completed', revision: 1 },
      ],
    });

    // Nothing was heard: no recognizer process started, no recognized segment stored.
    expect(await recognizerProcesses()).toBe(recognizedBefore);
    expect(await suite.api.db.selectFrom('transcript_segments').select('position').where('project_id', '=', projectId).execute()).toEqual([]);
    // The script as supplied; its speech extracted all the same, to listen to in the editor.
    expect(transcript.body.data.source_audio_url).toBeNull();
    expect((await call('GET', '/transcript')).body.data).toEqual({ ...transcript.body.data, source_audio_url: expect.stringContaining('/speech-16k.wav?') });

    // es_es translates exactly the supplied cues, one line and one caption each.
    const expected = await translate(SCRIPT.map((c) => c.text));
    const spanish = await languageSegments('es_es');
    expect(spanish).toEqual({
      locale: 'es_es',
      revision: 1,
      segments: SCRIPT.map((cue, i) => ({
        id: expect.stringMatching(/^lseg_/),
        source_segment_id: sourceIds[i],
        start_seconds: cue.start_seconds,
        end_seconds: cue.end_seconds,
        text: expected[i],
        status: 'current',
        clip_url: expect.stringMatching(/^\/v1\/files\/projects\/.+\/clips\/lseg_\w+\.wav$/),
        // Each line is its source segment's speaker's, in that speaker's voice (docs/speakers.md).
        speaker_id: transcript.body.data.segments[i].speaker_id,
        voice: expect.stringMatching(/^(espeak|festival):/),
        // Where the render placed it (docs/editing.md#sync-report).
        sync: { tempo: expect.any(Number), shift_seconds: expect.any(Number), overlaps_next: expect.any(Boolean) },
      })),
      sync: expect.objectContaining({ lines: SCRIPT.length }),
    });
    lineIds = spanish.segments.map((s) => s.id);
    published[1] = await captions();
    expect(parseVtt(published[1]).map((c) => c.text)).toEqual(expected);
    // The supplied file's markup is no part of the captions, not even escaped.
    expect(published[1]).not.toMatch(/&lt;|&gt;/);
    // One translation, into Spanish: the supplied cues (and the title); Catalan is not translated.
    expect(translation.calls.map((c) => c.modes)).toEqual([esModes]);
    expect(translation.calls[0]!.texts.slice(0, 3)).toEqual(SCRIPT.map((c) => c.text));

    // ca_es is the customer's words, as given: edited lines, its captions, its speech.
    const catalan = await languageSegments('ca_es');
    expect(catalan.segments.map((s) => [s.source_segment_id, s.text, s.status])).toEqual(CATALAN.map((text, i) => [sourceIds[i], text, 'edited']));
    const catalanCues = parseVtt(await captions('ca_es'));
    expect(catalanCues.map((c) => c.text)).toEqual(CATALAN);
    catalanCues.forEach((cue, i) => expect(cue.startSeconds).toBeCloseTo(SCRIPT[i]!.start_seconds, 3));
    expect([...speech.spoken].sort()).toEqual([...expected, ...CATALAN].sort());
  }, 240_000);
});

describe('editing one segment of the completed 3-segment project', () => {
  it("makes only that segment's lines stale (edited ones stay edited), and the quote bills only its seconds", async () => {
    const linesBefore = await suite.api.db.selectFrom('language_segments').selectAll().where('project_id', '=', projectId).orderBy('locale').orderBy('position').execute();
    const rowsBefore = await regenerationRows(suite.api, tenant.workspace.id);
    const spanishBefore = await languageSegments('es_es');

    const edited = await call('PATCH', `/transcript/segments/${sourceIds[1]}`, { text: 'The elephant is big.' });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ id: sourceIds[1], start_seconds: 1.4, end_seconds: 2.9, text: 'The elephant is big.' });
    expect((await call('GET', '/transcript')).body.data.source).toBe('edited');

    // es_es: the edited segment's line is stale (its words still the old translation), the others current.
    const spanish = await languageSegments('es_es');
    expect(spanish).toEqual({ ...spanishBefore, segments: spanishBefore.segments.map((s, i) => ({ ...s, status: i === 1 ? 'stale' : 'current' })) });
    // ca_es: a person's words; the machine never overwrites them.
    expect((await languageSegments('ca_es')).segments.map((s) => [s.text, s.status])).toEqual(CATALAN.map((text) => [text, 'edited']));
    const linesAfter = await suite.api.db.selectFrom('language_segments').selectAll().where('project_id', '=', projectId).orderBy('locale').orderBy('position').execute();
    expect(linesAfter.map(({ updated_at: _, ...l }) => l)).toEqual(linesBefore.map(({ updated_at: _, ...l }) => (l.id === lineIds[1] ? { ...l, status: 'stale' } : l)));

    // The quote: that segment's 1.5 s, rounded up; not the 3.3 s of all three. Catalan: nothing.
    const quote = await postRegenerate(suite.api, tenant, projectId, { max_billable_seconds: 60 });
    expect(quote.status).toBe(200);
    expect(quote.body.data.regeneration).toEqual({ preview_only: true, segments: 1, billable_seconds: 2, credits: 20, max_billable_seconds: 60, within_limit: true, charged_now_seconds: 0 });
    const catalanQuote = await postRegenerate(suite.api, tenant, projectId, { max_billable_seconds: 60 }, undefined, 'ca_es');
    expect(catalanQuote.body.data.regeneration).toMatchObject({ segments: 0, billable_seconds: 0, credits: 0 });
    // Quoting and editing are free: no charge, no regeneration, no key kept.
    const rowsAfter = await regenerationRows(suite.api, tenant.workspace.id);
    expect([rowsAfter.ledger, rowsAfter.balance, rowsAfter.regenerations, rowsAfter.idempotency]).toEqual([rowsBefore.ledger, rowsBefore.balance, rowsBefore.regenerations, rowsBefore.idempotency]);
  });

  it('regenerating charges exactly the quote, speaks one line, keeps the other cues byte-identical and publishes revision 2; a download meanwhile gets revision 1 whole', async () => {
    const endpoint = await request(suite.api.baseUrl, 'POST', '/v1/webhooks', {
      headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() },
      body: { url: receiver.url('/editing'), enabled_events: ['language.completed'] },
    });
    expect(endpoint.status).toBe(201);
    const old = { vtt: published[1]!, wav: (await audio()).bytes };
    const speech = countingSpeech();
    const store = gatedBlobStore(suite.api.blobStore, (key) => key === `projects/${projectId}/languages/es_es/r2/thumbnail.png`);
    await suite.worker.use({ tts: speech.tts }, { blobStore: store });
    const before = await regenerationRows(suite.api, tenant.workspace.id);

    const key = randomUUID();
    const body = { max_billable_seconds: 2, preview_only: false };
    const paid = await postRegenerate(suite.api, tenant, projectId, body, key);
    expect(paid.status).toBe(200);
    expect(paid.body.data.regeneration).toEqual({ preview_only: false, segments: 1, billable_seconds: 2, credits: 20, max_billable_seconds: 2, within_limit: true, charged_now_seconds: 2 });
    expect(paid.body.data.project.languages.find((l: any) => l.locale === 'es_es')).toMatchObject({ status: 'completed', revision: 1 });
    const charged = await regenerationRows(suite.api, tenant.workspace.id);
    expect(charged.regenerations.slice(before.regenerations.length)).toEqual([
      expect.objectContaining({ locale: 'es_es', status: 'running', segments: 1, billable_seconds: 2, credits: 20, from_revision: 1, to_revision: null, idempotency_key: key }),
    ]);
    const regenerationId = charged.regenerations.at(-1)!.id;
    // The ledger charges exactly the quote, under the regeneration's own reference.
    expect(charged.ledger.slice(before.ledger.length).map((e) => [e.kind, e.amount, e.reference])).toEqual([['capture', 20, regenerationChargeReference(projectId, regenerationId)]]);
    expect(charged.balance).toEqual({ ...before.balance, captured: before.balance.captured + 20 });

    // Held between render and publish: revision 2's files are all stored, the rows still name revision 1's.
    await store.gate.reached;
    let heldLocation: URL | undefined;
    try {
      expect(await suite.api.blobStore.stat(`projects/${projectId}/languages/es_es/r2/captions.vtt`)).not.toBeNull();
      expect(await esLanguage()).toMatchObject({ status: 'completed', revision: 1 });
      expect(await captions()).toBe(old.vtt);
      const during = await audio();
      expect(during.bytes.equals(old.wav)).toBe(true);
      heldLocation = during.location;
      expect(await regenerationRow(regenerationId)).toMatchObject({ status: 'running' });
    } finally {
      store.gate.open();
    }
    await waitForRevision(2);

    // One line spoken: the new translation of the edited segment.
    const [newText] = await translate(['The elephant is big.']);
    expect(speech.spoken).toEqual([newText]);
    const spanish = await languageSegments('es_es');
    expect(spanish.revision).toBe(2);
    expect(spanish.segments.map((s) => [s.id, s.status])).toEqual(lineIds.map((id) => [id, 'current']));
    expect(spanish.segments[1]!.text).toBe(newText);
    // The new captions: the new words, the untouched cues byte for byte.
    published[2] = await captions();
    const [was, now] = [vttBlocks(old.vtt), vttBlocks(published[2])];
    expect(now).toHaveLength(3);
    expect([now[0], now[2]]).toEqual([was[0], was[2]]);
    expect(now[1]).toContain(newText);
    expect(now[1]).not.toBe(was[1]);
    // The new audio; a link handed out before the switch still plays revision 1 whole.
    expect((await audio()).bytes.equals(old.wav)).toBe(false);
    expect((await fetchBytes(heldLocation!)).equals(old.wav)).toBe(true);
    expect(await regenerationRow(regenerationId)).toMatchObject({ status: 'completed', from_revision: 1, to_revision: 2, refunded_credits: 0, failure_code: null });
    expect(await regenerationLedger()).toEqual([{ kind: 'capture', amount: 20, reference: regenerationChargeReference(projectId, regenerationId) }]);

    // The language.completed webhook announces revision 2.
    const delivered = await waitFor('language.completed for revision 2', async () => receiver.received.find((r) => r.path === '/editing' && r.body?.revision === 2), 60_000);
    expect(delivered.body).toMatchObject({ type: 'language.completed', project_id: projectId, locale: 'es_es', revision: 2 });
    expect(delivered.body.data.object.languages.find((l: any) => l.locale === 'es_es')).toMatchObject({ status: 'completed', revision: 2 });

    // A replay answers the same body and charges nothing; another body under the key is refused.
    const settled = await regenerationRows(suite.api, tenant.workspace.id);
    const replay = await postRegenerate(suite.api, tenant, projectId, body, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(paid.body);
    expect(await regenerationRows(suite.api, tenant.workspace.id)).toEqual(settled);
    const reused = await postRegenerate(suite.api, tenant, projectId, { max_billable_seconds: 5, preview_only: false }, key);
    expect(reused.status).toBe(422);
    expect(reused.body.error).toMatchObject({ type: 'invalid_request_error', code: 'idempotency_key_reused', param: 'Idempotency-Key' });
    expect(await regenerationRows(suite.api, tenant.workspace.id)).toEqual(settled);
    expect(await esLanguage()).toMatchObject({ revision: 2 });
  }, 180_000);

  it('an edited line survives a later source edit and the regeneration after it', async () => {
    const line = await call('PATCH', `/languages/es_es/segments/${lineIds[0]}`, { text: 'Buenos días a todos.' });
    expect(line.status).toBe(200);
    expect(line.body.data).toMatchObject({ id: lineIds[0], text: 'Buenos días a todos.', status: 'edited' });
    // Later, both its own source segment and the third one change.
    for (const [i, text] of [
      [0, 'Good evening.'],
      [2, 'The garden is green.'],
    ] as const) {
      expect((await call('PATCH', `/transcript/segments/${sourceIds[i]}`, { text })).status).toBe(200);
    }
    expect((await languageSegments('es_es')).segments.map((s) => s.status)).toEqual(['edited', 'current', 'stale']);
    expect((await languageSegments('es_es')).segments[0]!.text).toBe('Buenos días a todos.');
    // The edited line (1.0 s) and the stale one (0.8 s): 1.8 s, rounded up.
    const quote = await postRegenerate(suite.api, tenant, projectId, { max_billable_seconds: 60 });
    expect(quote.body.data.regeneration).toMatchObject({ segments: 2, billable_seconds: 2, credits: 20 });

    const speech = countingSpeech();
    const translation = countingTranslator();
    await suite.worker.use({ tts: speech.tts, translator: translation.translator });
    const before = await regenerationLedger();
    const paid = await postRegenerate(suite.api, tenant, projectId, { max_billable_seconds: 2, preview_only: false }, randomUUID());
    expect(paid.status).toBe(200);
    expect(paid.body.data.regeneration).toMatchObject({ segments: 2, billable_seconds: 2, charged_now_seconds: 2 });
    await waitForRevision(3);

    // Only the stale line was translated; the edited line was spoken as the person wrote it.
    const [garden] = await translate(['The garden is green.']);
    expect(translation.calls.map((c) => c.texts)).toEqual([['The garden is green.']]);
    expect(speech.spoken).toEqual(['Buenos días a todos.', garden]);
    const spanish = await languageSegments('es_es');
    expect(spanish.segments.map((s) => [s.text, s.status])).toEqual([
      ['Buenos días a todos.', 'edited'],
      [spanish.segments[1]!.text, 'current'],
      [garden, 'current'],
    ]);
    published[3] = await captions();
    const [was, now] = [vttBlocks(published[2]!), vttBlocks(published[3])];
    expect(now[0]).toContain('Buenos días a todos.');
    expect(now[1]).toBe(was[1]);
    expect(now[2]).toContain(garden);
    const regenerationId = (await regenerationLedger()).at(-1)!.reference.split(':regen:')[1]!;
    expect(await regenerationLedger()).toEqual([...before, { kind: 'capture', amount: 20, reference: regenerationChargeReference(projectId, regenerationId) }]);
  }, 180_000);
});

describe('the reconciler, for a regeneration its workflow left running', () => {
  it('a terminated regeneration is failed and refunded once; the published revision stays', async () => {
    expect((await call('PATCH', `/transcript/segments/${sourceIds[1]}`, { text: 'The elephant is very big.' })).status).toBe(200);
    const balance = await getBalance(suite.api.db, tenant.workspace.id);
    const usage = await usageSeconds();
    // No worker: the regeneration's workflow starts and waits; an operator terminates it.
    await suite.worker.stop();
    const paid = await postRegenerate(suite.api, tenant, projectId, { max_billable_seconds: 2, preview_only: false }, randomUUID());
    expect(paid.status).toBe(200);
    expect(paid.body.data.regeneration).toMatchObject({ segments: 1, billable_seconds: 2, charged_now_seconds: 2 });
    const workflowId = regenerationWorkflowId(projectId, 'es_es', 3);
    const handle = suite.api.temporal.workflow.getHandle(workflowId);
    await handle.terminate('an operator terminated it from the Web UI');
    expect((await handle.describe()).status.name).toBe('TERMINATED');
    const { id: regenerationId } = await suite.api.db.selectFrom('language_regenerations').select('id').where('project_id', '=', projectId).where('status', '=', 'running').executeTakeFirstOrThrow();
    expect(await regenerationRow(regenerationId)).toMatchObject({ status: 'running', credits: 20 });
    expect(await usageSeconds()).toEqual({ ...usage, charged_seconds: usage.charged_seconds + 2 });
    await suite.worker.use();

    // Within the grace period nothing is judged.
    expect(await reconcile()).toEqual({ repairs: [], failed: [] });
    expect(await regenerationRow(regenerationId)).toMatchObject({ status: 'running' });

    await tenMinutesPass();
    const pass = await reconcile();
    expect(pass).toEqual({ repairs: [expect.objectContaining({ subject: workflowId, kind: 'settle_regeneration' })], failed: [] });
    expect(await regenerationRow(regenerationId)).toMatchObject({ status: 'failed', failure_code: 'terminated', to_revision: null, refunded_credits: 20, completed_at: expect.any(Date) });
    const charges = (await regenerationLedger()).filter((e) => e.reference.includes(regenerationId));
    expect(charges).toEqual([
      { kind: 'capture', amount: 20, reference: regenerationChargeReference(projectId, regenerationId) },
      { kind: 'refund', amount: 20, reference: regenerationRefundReference(projectId, regenerationId) },
    ]);
    expect(await getBalance(suite.api.db, tenant.workspace.id)).toEqual(balance);
    expect(await usageSeconds()).toEqual({ charged_seconds: usage.charged_seconds, refunded_seconds: usage.refunded_seconds + 2 });
    expect(await esLanguage()).toMatchObject({ status: 'completed', revision: 3 });
    expect(await captions()).toBe(published[3]);

    // Once: the next pass finds nothing to do.
    expect(await reconcile()).toEqual({ repairs: [], failed: [] });
    expect((await regenerationLedger()).filter((e) => e.reference.includes(regenerationId))).toEqual(charges);
  }, 180_000);

  it('a regeneration whose workflow never started is started, and publishes the next revision', async () => {
    await suite.worker.use();
    // Committed as the API commits it, and the start after the commit lost (no client retry).
    const committed = await suite.api.db
      .transaction()
      .execute((trx) => commitRegeneration(trx, { projectId, locale: 'es_es', body: { max_billable_seconds: 2, preview_only: false }, idempotencyKey: randomUUID() }));
    if (committed.kind !== 'charged') throw new Error(`expected a charge, got ${committed.kind}`);
    const { regenerationId, number } = committed.run;
    expect(number).toBe(4);
    const workflowId = regenerationWorkflowId(projectId, 'es_es', 4);
    await expect(suite.api.temporal.workflow.getHandle(workflowId).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);

    await tenMinutesPass();
    const pass = await reconcile();
    expect(pass).toEqual({ repairs: [expect.objectContaining({ subject: workflowId, kind: 'start_regeneration_workflow' })], failed: [] });
    await waitForRevision(4);
    expect(await regenerationRow(regenerationId)).toMatchObject({ status: 'completed', from_revision: 3, to_revision: 4, refunded_credits: 0 });
    const [elephant] = await translate(['The elephant is very big.']);
    const [was, now] = [vttBlocks(published[3]!), vttBlocks(await captions())];
    expect([now[0], now[2]]).toEqual([was[0], was[2]]);
    expect(now[1]).toContain(elephant);
    expect((await regenerationLedger()).filter((e) => e.reference.includes(regenerationId))).toEqual([
      { kind: 'capture', amount: 20, reference: regenerationChargeReference(projectId, regenerationId) },
    ]);

    // Started once: the next pass finds it completed.
    expect(await reconcile()).toEqual({ repairs: [], failed: [] });
  }, 180_000);
});
