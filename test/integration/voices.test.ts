import { randomUUID } from 'node:crypto';
import { readWavInfo } from '../../src/engines/tts/wav-file';
import { dubEnv, runDub } from '../helpers/dub-cli';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { additionRows, dubbedProject, postLanguages, waitForProjectWorkflowClosed } from '../helpers/language-additions';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { createProject, projectBody, waitForProjectView, workspaceRowCounts } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';
import { waitFor } from '../helpers/wait-for';

// Voices for real (docs/voices.md): the public list from the workers' capabilities, each voice's
// sample rendered by a worker and served by redirect, a chosen voice checked at create and when
// adding languages (400 naming `voices.<locale>`, nothing written), stored per language, shown in
// GET, and spoken by the render: a Catalan dub in Festival's HTS voice is not espeak-ng's.

const HTS = 'festival:upc_ca_ona_hts';
const ESPEAK = 'espeak:ca';
let api: TestApi;
let worker: TestWorker;
let tenant: TestTenant;
let dir: string;
let clip: Buffer;

beforeAll(async () => {
  dir = makeTempDir('voices-');
  clip = await spokenClip(dir, 'The garden is green and the sky is blue today.', 4);
  api = await startTestApi({ UPLOAD_PART_SIZE_BYTES: String(64 * 1024) });
  worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue, env: { WORKER_VOICE_SAMPLES: 'true' } });
  tenant = await createTenant(api.db, { credits: 100_000 });
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await api?.close();
  removeTempDir(dir);
});

const wav = (bytes: Buffer) => readWavInfo(bytes);
const fetchBytes = async (url: string): Promise<Buffer> => {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
};

describe('GET /v1/dubbing/voices', () => {
  it("needs no key and lists each target locale's voices, the most natural first and default", async () => {
    const res = await request(api.baseUrl, 'GET', '/v1/dubbing/voices');
    expect(res.status).toBe(200);
    const catalan = (res.body.data as any[]).filter((v) => v.locale === 'ca_es');
    expect(catalan.map((v) => [v.id, v.quality, v.default])).toEqual([
      [HTS, 'hts', true],
      [ESPEAK, 'formant', false],
      ['espeak:ca+f3', 'formant', false],
    ]);
    expect(catalan[0]).toEqual({
      id: HTS,
      locale: 'ca_es',
      name: 'Ona (Festival HTS)',
      gender: 'female',
      engine: 'festival',
      quality: 'hts',
      default: true,
      sample_url: `${api.baseUrl}/v1/dubbing/voices/festival%3Aupc_ca_ona_hts/sample?locale=ca_es`,
    });
    // Spanish: no Festival voice in Debian main, espeak-ng's male voice and its female variant.
    expect((res.body.data as any[]).filter((v) => v.locale === 'es_es').map((v) => [v.id, v.gender])).toEqual([
      ['espeak:es', 'male'],
      ['espeak:es+f3', 'female'],
    ]);
  });

  it('filters by locale and refuses what it does not take', async () => {
    const italian = await request(api.baseUrl, 'GET', '/v1/dubbing/voices?locale=it_it');
    expect(italian.status).toBe(200);
    expect((italian.body.data as any[]).map((v) => v.id)).toEqual(['festival:lp_diphone', 'festival:pc_diphone', 'espeak:it', 'espeak:it+f3']);
    const none = await request(api.baseUrl, 'GET', '/v1/dubbing/voices?locale=xx_xx');
    expect(none).toMatchObject({ status: 200, body: { data: [] } });
    const bad = await request(api.baseUrl, 'GET', '/v1/dubbing/voices?gender=female');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: 'invalid_request_error', code: 'unknown_parameter', param: 'gender' });
  });

  it('is what `dub voices` prints, the default marked', async () => {
    const { code, stdout } = await runDub(['voices', '--locale', 'it_it'], { cwd: dir, env: dubEnv({ apiKey: tenant.key, baseUrl: api.baseUrl }) });
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^LOCALE\s+VOICE\s+QUALITY\s+GENDER\s+NAME$/);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/).slice(0, 3))).toEqual([
      ['it_it', '* festival:lp_diphone', 'diphone'],
      ['it_it', 'festival:pc_diphone', 'diphone'],
      ['it_it', 'espeak:it', 'formant'],
      ['it_it', 'espeak:it+f3', 'formant'],
    ]);
  });

  it("redirects a voice's sample to the WAV a worker rendered: a short sentence at 22,050 Hz", async () => {
    const list = (await request(api.baseUrl, 'GET', '/v1/dubbing/voices?locale=ca_es')).body.data as any[];
    for (const voice of list) {
      const path = new URL(voice.sample_url).pathname + new URL(voice.sample_url).search;
      // The worker renders every sample once started; until then the API says to come back.
      const res = await waitFor(
        `the sample of ${voice.id}`,
        async () => {
          const answer = await request(api.baseUrl, 'GET', path);
          if (answer.status === 503) expect(answer.headers.get('retry-after')).toBe('30');
          return answer.status === 302 ? answer : undefined;
        },
        120_000,
        500,
      );
      const info = wav(await fetchBytes(res.headers.get('location')!));
      expect({ voice: voice.id, rate: info.sampleRate, channels: info.channels }).toEqual({ voice: voice.id, rate: 22_050, channels: 1 });
      expect(info.durationSeconds).toBeGreaterThan(1.5);
    }
    const unknown = await request(api.baseUrl, 'GET', '/v1/dubbing/voices/festival%3Anobody/sample');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'not_found', param: 'voice_id' });
  }, 180_000);
});

describe('choosing a voice', () => {
  it('refuses an unknown voice, one of another locale, or one for a locale that is not a target: 400 naming it, nothing written', async () => {
    const before = await workspaceRowCounts(api, tenant.workspace.id);
    const cases: [Record<string, string>, string, string, RegExp][] = [
      [{ ca_es: 'festival:nobody' }, 'unsupported_voice', 'voices.ca_es', /not offered by any live worker/],
      [{ ca_es: 'festival:lp_diphone' }, 'unsupported_voice', 'voices.ca_es', /speaks it_it, not ca_es/],
      [{ ca_es: HTS, it_it: 'festival:lp_diphone' }, 'invalid_parameter', 'voices.it_it', /not one of the target locales/],
    ];
    for (const [voices, code, param, message] of cases) {
      const res = await createProject(api, tenant, projectBody({ target_locales: ['ca_es'], voices }));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code, param });
      expect(res.body.error.message).toMatch(message);
    }
    expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before);
  });

  it("gives a language with no chosen voice its locale's most natural one", async () => {
    const res = await createProject(api, tenant, projectBody({ target_locales: ['ca_es', 'es_es'], voices: { es_es: 'espeak:es+f3' } }));
    expect(res.status).toBe(201);
    const row = await api.db.selectFrom('projects').select('voices').where('id', '=', res.body.data.id).executeTakeFirstOrThrow();
    expect(row.voices).toEqual({ ca_es: HTS, es_es: 'espeak:es+f3' });
  });

  it("dubs with the chosen voice: listed on the language, heard in the audio, which is not espeak-ng's; an added language takes its own", async () => {
    const festival = await dubbedProject(api, tenant, clip, { target_locales: ['ca_es'], voices: { ca_es: HTS } });
    const espeak = await dubbedProject(api, tenant, clip, { target_locales: ['ca_es'], voices: { ca_es: ESPEAK } });
    expect(festival.languages).toEqual([expect.objectContaining({ locale: 'ca_es', status: 'completed', voice: HTS })]);
    expect(espeak.languages).toEqual([expect.objectContaining({ locale: 'ca_es', status: 'completed', voice: ESPEAK })]);

    const audio = async (projectId: string) => {
      const res = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${projectId}/download?locale=ca_es&type=audio&format=wav`, { headers: bearer(tenant.key) });
      expect(res.status).toBe(302);
      return fetchBytes(res.headers.get('location')!);
    };
    const [a, b] = [await audio(festival.id), await audio(espeak.id)];
    expect(a.equals(b)).toBe(false);
    // The clips the renders stored: Festival's voice spoke one, espeak-ng's the other (same words, same translation).
    const clips = async (projectId: string) =>
      api.db.selectFrom('language_segments').select(['text', 'clip_seconds']).where('project_id', '=', projectId).where('clip_key', 'is not', null).orderBy('position').execute();
    const [fc, ec] = [await clips(festival.id), await clips(espeak.id)];
    expect(fc.map((c) => c.text)).toEqual(ec.map((c) => c.text));
    expect(fc.length).toBeGreaterThan(0);
    expect(fc.map((c) => c.clip_seconds)).not.toEqual(ec.map((c) => c.clip_seconds));

    // Adding a language: a voice of another locale is refused with nothing written; its own is kept.
    const before = await additionRows(api, tenant.workspace.id);
    const refused = await postLanguages(api, tenant, festival.id, { target_locales: ['it_it'], max_billable_seconds: 60, preview_only: false, voices: { it_it: HTS } }, randomUUID());
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'unsupported_voice', param: 'voices.it_it' });
    expect(await additionRows(api, tenant.workspace.id)).toEqual(before);

    const added = await postLanguages(api, tenant, festival.id, { target_locales: ['it_it'], max_billable_seconds: 60, preview_only: false, voices: { it_it: 'festival:pc_diphone' } }, randomUUID());
    expect(added.status).toBe(200);
    expect(added.body.data.project.languages.find((l: any) => l.locale === 'it_it')).toMatchObject({ voice: 'festival:pc_diphone', status: 'queued' });
    const done = await waitForProjectView(api, tenant, festival.id, 'it_it completed', (p) => p.languages.find((l: any) => l.locale === 'it_it')?.status === 'completed', 120_000);
    expect(done.languages.map((l: any) => [l.locale, l.voice])).toEqual([
      ['ca_es', HTS],
      ['it_it', 'festival:pc_diphone'],
    ]);
    await waitForProjectWorkflowClosed(api, festival.id);
  }, 360_000);
});
