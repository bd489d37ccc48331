import { randomUUID } from 'node:crypto';
import { getBalance } from '../../src/db/credits';
import { startFakeLibreTranslate, type FakeLibreTranslate } from '../fakes/libretranslate-server';
import { startFakeSpeechServer, type FakeSpeechServer } from '../fakes/openai-speech-server';
import { startFakeTranscriptionServer, type FakeTranscriptionServer } from '../fakes/openai-transcription-server';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';

// A worker given the three external engines by URL (docs/engines.md) dubs with them: the
// doubles of the servers (test/fakes) record what the worker sent. A 500 is retried; a 400
// fails the language with a clear code and refunds it through the ledger.

const CPS = 10;
const ASR_KEY = 'asr-secret-0123456789';
const MT_KEY = 'mt-secret-0123456789';
const TTS_KEY = 'tts-secret-0123456789';
let api: TestApi;
let worker: TestWorker;
let tenant: TestTenant;
let dir: string;
let asr: FakeTranscriptionServer;
let mt: FakeLibreTranslate;
let tts: FakeSpeechServer;
let clip: Buffer;

beforeAll(async () => {
  dir = makeTempDir('external-engines-');
  [asr, mt, tts] = await Promise.all([startFakeTranscriptionServer(), startFakeLibreTranslate({ en: ['es', 'de'], de: ['en', 'es'] }), startFakeSpeechServer(['ef_dora', 'em_alex'])]);
  asr.requiredKey = ASR_KEY;
  mt.requiredKey = MT_KEY;
  tts.requiredKey = TTS_KEY;
  asr.script = ['The garden is green.', 'The sky is blue today.'];
  api = await startTestApi({}, [], 'none');
  tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
  worker = await startTestWorker(api.db, {
    taskQueue: api.config.temporal.taskQueue,
    env: {
      ASR_ENGINE_URL: asr.url,
      ASR_ENGINE_MODEL: 'Systran/faster-whisper-small',
      ASR_ENGINE_API_KEY: ASR_KEY,
      ASR_ENGINE_LOCALES: 'en_us',
      MT_ENGINE_URL: mt.url,
      MT_ENGINE_API_KEY: MT_KEY,
      TTS_ENGINE_URL: tts.url,
      TTS_ENGINE_MODEL: 'kokoro',
      TTS_ENGINE_API_KEY: TTS_KEY,
      // Two Spanish voices: the first is the locale's default (docs/engines.md#speech-synthesis).
      TTS_ENGINE_VOICES: 'es_es=ef_dora,es_es=em_alex',
    },
  });
  await api.capabilities.refresh();
  clip = await spokenClip(dir, 'The garden is green. The sky is blue today.', 4);
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await Promise.all([asr?.close(), mt?.close(), tts?.close()]);
  removeTempDir(dir);
});

async function dub(targets: string[], voices?: Record<string, string>, extra: Record<string, unknown> = {}): Promise<{ id: string; view: any }> {
  const created = await createProject(
    api,
    tenant,
    projectBody({ target_locales: targets, ...(voices ? { voices } : {}), source: { type: 'upload', file_name: 'garden.mp4', size_bytes: clip.length }, ...extra }),
  );
  expect(created.status).toBe(201);
  expect((await uploadAndComplete(api, tenant, created.body.data, clip)).status).toBe(200);
  const view = await waitForProjectView(api, tenant, created.body.data.id, 'an ended project', (p) => ['completed', 'partially_completed', 'failed'].includes(p.status), 120_000);
  return { id: created.body.data.id, view };
}

const ledger = async (projectId: string) =>
  (await api.db.selectFrom('credit_ledger').select(['kind', 'amount']).where('project_id', '=', projectId).orderBy('id').execute()).map((r) => `${r.kind}:${r.amount}`);

it('publishes what the external engines serve, the external route and voice winning', async () => {
  const res = await request(api.baseUrl, 'GET', '/v1/dubbing/locales');
  expect(res.body.capabilities).toMatchObject({ source: 'live_workers', live_workers: 1 });
  const spanish = res.body.data.find((l: any) => l.locale === 'es_es');
  // LibreTranslate translates en → es directly: no apertium pivot shown.
  expect(spanish).toMatchObject({ usable_as_target: true, translation_pivot: null });
  // German: only the external translator reaches it, spoken by espeak-ng's voice.
  expect(res.body.data.find((l: any) => l.locale === 'de_de')).toMatchObject({ display_name: 'German (Germany)', usable_as_target: true, usable_as_source: false });
  const row = await api.db.selectFrom('worker_capabilities').select('capabilities').where('worker_id', '=', worker.workerId).executeTakeFirstOrThrow();
  const published = (row.capabilities as any).locales;
  expect(published.find((l: any) => l.locale === 'es_es')).toMatchObject({ voice: 'openai-tts:ef_dora', translationModes: ['libretranslate:en-es'] });
  expect(published.find((l: any) => l.locale === 'de_de')).toMatchObject({ voice: 'de', translationModes: ['libretranslate:en-de'] });
  // Both external voices are offered, the first listed the default.
  const voices = await request(api.baseUrl, 'GET', '/v1/dubbing/voices?locale=es_es');
  expect(voices.body.data.filter((v: any) => v.engine === 'openai-tts').map((v: any) => [v.id, v.quality, v.default])).toEqual([
    ['openai-tts:ef_dora', 'neural', true],
    ['openai-tts:em_alex', 'neural', false],
  ]);
  // Keys are the engines' own: none is published.
  expect(JSON.stringify(row.capabilities)).not.toMatch(/secret-0123456789/);
});

it('dubs a project end to end with the three external engines', async () => {
  const before = { asr: asr.calls.length, mt: mt.calls.length, tts: tts.calls.length };
  const { id, view } = await dub(['es_es']);
  expect(view.status).toBe('completed');
  expect(view.languages[0]).toMatchObject({ locale: 'es_es', status: 'completed' });
  expect(view.languages[0].deliverables).toHaveLength(9); // the dubbed video, the TTML captions and the two stems included (docs/video.md, docs/captions.md, docs/audio.md#stems)

  // Speech recognition: one multipart request with the 16 kHz WAV, the model and the formats.
  const heard = asr.calls.slice(before.asr);
  expect(heard).toHaveLength(1);
  expect(heard[0]).toMatchObject({ status: 200, bearer: ASR_KEY, file: { name: 'audio.wav', type: 'audio/wav', sampleRate: 16_000, channels: 1 } });
  expect(heard[0]!.file!.seconds).toBeCloseTo(4, 0);
  expect(heard[0]!.fields).toMatchObject({ model: ['Systran/faster-whisper-small'], response_format: ['verbose_json'], 'timestamp_granularities[]': ['segment', 'word'], language: ['en'] });
  const source = await api.db.selectFrom('source_segments').select(['text', 'start_seconds', 'end_seconds']).where('project_id', '=', id).orderBy('position').execute();
  expect(source.map((s) => s.text)).toEqual(asr.script);
  expect(source[1]!.start_seconds).toBeGreaterThan(source[0]!.end_seconds);

  // Translation: the transcript (with the title and description) in one LibreTranslate request.
  const translated = mt.calls.slice(before.mt).filter((c) => c.path === '/translate');
  expect(translated).toHaveLength(1);
  expect(translated[0]).toMatchObject({ status: 200, body: { source: 'en', target: 'es', format: 'text', api_key: MT_KEY } });
  expect(translated[0]!.body!.q).toEqual(expect.arrayContaining(asr.script));
  const lines = await api.db.selectFrom('language_segments').select(['text', 'clip_seconds']).where('project_id', '=', id).where('locale', '=', 'es_es').orderBy('position').execute();
  expect(lines.map((l) => l.text)).toEqual(['[es] The garden is green.', '[es] The sky is blue today.']);

  // Speech: one request per line, with the configured model and voice, as WAV.
  const spoken = tts.calls.slice(before.tts);
  expect(spoken.map((c) => c.body?.input).sort()).toEqual(lines.map((l) => l.text).sort());
  for (const call of spoken) expect(call).toMatchObject({ status: 200, bearer: TTS_KEY, body: { model: 'kokoro', voice: 'ef_dora', response_format: 'wav' } });
  // The clip is what the server said (a tone ~1/14 s a character), normalized to plain PCM.
  expect(lines[0]!.clip_seconds).toBeGreaterThan(1.2);
  expect(lines[0]!.clip_seconds).toBeLessThan(2.2);
}, 180_000);

it("speaks a language with its second listed voice by that voice's own name", async () => {
  const before = tts.calls.length;
  const { view } = await dub(['es_es'], { es_es: 'openai-tts:em_alex' });
  expect(view.status).toBe('completed');
  const spoken = tts.calls.slice(before);
  expect(spoken.length).toBeGreaterThan(0);
  for (const call of spoken) expect(call).toMatchObject({ status: 200, body: { model: 'kokoro', voice: 'em_alex' } });
}, 180_000);

it("sends a glossary's terms to LibreTranslate in the form it leaves alone, and restores them (docs/glossaries.md#enforcement)", async () => {
  const glossary = await request(api.baseUrl, 'POST', '/v1/glossaries', {
    headers: { authorization: `Bearer ${tenant.key}`, 'idempotency-key': randomUUID() },
    body: {
      name: 'Garden',
      source_locale: 'en_us',
      entries: [
        { term: 'garden', translations: { es_es: 'Huerto Real' } },
        { term: 'sky', keep: true },
      ],
    },
  });
  expect(glossary.status).toBe(201);
  const before = mt.calls.length;
  const { id, view } = await dub(['es_es'], undefined, { glossary: { id: glossary.body.data.id } });
  expect(view.status).toBe('completed');
  const translated = mt.calls.slice(before).filter((c) => c.path === '/translate');
  expect(translated).toHaveLength(1);
  expect(translated[0]!.body).toMatchObject({ format: 'html' });
  const sent = translated[0]!.body!.q as string[];
  // The terms travel inside markup the server does not translate; the words around them do not.
  expect(sent).toEqual(
    expect.arrayContaining([expect.stringMatching(/^The <span translate="no"[^>]*>[^<]*<\/span> is green\.$/), expect.stringMatching(/^The <span translate="no"[^>]*>[^<]*<\/span> is blue today\.$/)]),
  );
  const lines = await api.db.selectFrom('language_segments').select('text').where('project_id', '=', id).where('locale', '=', 'es_es').orderBy('position').execute();
  expect(lines.map((l) => l.text)).toEqual(['[es] The Huerto Real is green.', '[es] The sky is blue today.']);
}, 180_000);

it('retries a translation the server answered 500, then completes', async () => {
  mt.failNext('/translate', 1, { status: 500, body: { error: 'Internal Server Error' } });
  const before = mt.calls.length;
  const { id, view } = await dub(['es_es']);
  expect(view.status).toBe('completed');
  const attempts = mt.calls.slice(before).filter((c) => c.path === '/translate');
  expect(attempts.map((c) => c.status)).toEqual([500, 200]);
  // The same request both times.
  expect(attempts[1]!.body).toEqual(attempts[0]!.body);
  const billable: number = view.usage.billable_seconds;
  expect(await ledger(id)).toEqual([`hold:${60 * CPS}`, `capture:${billable * CPS}`, `release:${(60 - billable) * CPS}`]);
}, 180_000);

it('fails the language with a clear code and refunds it when the speech server refuses (400)', async () => {
  tts.failNext('/audio/speech', 1, { status: 400, body: { detail: { error: 'validation_error', message: 'Input text too long', type: 'invalid_request_error' } } });
  const before = tts.calls.length;
  const balanceBefore = await getBalance(api.db, tenant.workspace.id);
  const { id, view } = await dub(['es_es']);
  expect(view.status).toBe('failed');
  const billable: number = view.usage.billable_seconds;
  expect(view.languages[0]).toMatchObject({ locale: 'es_es', status: 'failed', deliverables: [], failure: { code: 'engine_failed' }, usage: { refunded_seconds: billable } });
  expect(view.languages[0].failure.message).toBe('The dubbing engines could not produce es_es; what it was charged was refunded.');
  // Refused once, not retried: a 400 would be refused again.
  expect(tts.calls.slice(before).filter((c) => c.status === 400)).toHaveLength(1);
  const detail = await api.db.selectFrom('project_languages').select('failure_detail').where('project_id', '=', id).executeTakeFirstOrThrow();
  expect(detail.failure_detail).toContain('the speech synthesis engine refused');
  expect(detail.failure_detail).toContain('HTTP 400: Input text too long');
  expect(detail.failure_detail).not.toContain(TTS_KEY);
  // The ledger: held, captured, the rest released, the capture refunded.
  expect(await ledger(id)).toEqual([`hold:${60 * CPS}`, `capture:${billable * CPS}`, `release:${(60 - billable) * CPS}`, `refund:${billable * CPS}`]);
  expect(await getBalance(api.db, tenant.workspace.id)).toEqual(balanceBefore);
}, 180_000);

it('fails the project and refunds every language when the recognizer refuses the audio (413)', async () => {
  asr.failNext('/audio/transcriptions', 1, { status: 413, body: { error: { message: 'Maximum content size limit (26214400) exceeded', type: 'invalid_request_error' } } });
  const before = asr.calls.length;
  const balanceBefore = await getBalance(api.db, tenant.workspace.id);
  const { id, view } = await dub(['es_es']);
  expect(view.status).toBe('failed');
  // The engine's refusal is the platform's failure: free to retry (issue 41, item 1; was source_failed).
  expect(view.languages[0]).toMatchObject({ status: 'failed', failure: { code: 'engine_failed', retry: 'free' } });
  // Refused once, not retried.
  expect(asr.calls.slice(before).map((c) => c.status)).toEqual([413]);
  const billable: number = view.usage.billable_seconds;
  expect(await ledger(id)).toEqual([`hold:${60 * CPS}`, `capture:${billable * CPS}`, `release:${(60 - billable) * CPS}`, `refund:${billable * CPS}`]);
  expect(await getBalance(api.db, tenant.workspace.id)).toEqual(balanceBefore);
}, 180_000);
