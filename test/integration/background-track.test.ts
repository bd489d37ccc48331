import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { getBalance } from '../../src/db/credits';
import { listLanguageSegments } from '../../src/db/language-segments';
import { readWavInfo } from '../../src/engines/tts/wav-file';
import { readRevisionTimeline } from '../../src/pipeline/revision-timeline';
import { revisionKeyPrefix } from '../../src/pipeline/storage-keys';
import { countingMedia } from '../helpers/counting-media';
import { dubbingSuite } from '../helpers/dubbing-suite';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { ffmpeg, makeVideo, speak } from '../helpers/media-fixtures';
import { createProject, getProjectView, projectBody, waitForProjectView, workspaceRowCounts } from '../helpers/projects';
import { postRegenerate } from '../helpers/regenerations';
import { request } from '../helpers/test-api';
import { putPart, splitParts } from '../helpers/upload-client';

// The customer's own music-and-effects track (docs/background.md#your-own-music-and-effects-track)
// on the real stack: uploaded beside the source, completed first, checked against the source
// before any charge, and what plays under the dub, at full level, in place of the original. The
// original here carries a 440 Hz tone, the track a 220 Hz one: the published mix is measured at
// both (Goertzel), between the dubbed sentences and under them.

const CPS = 10;
const SECONDS = 8;
const RATE = 48_000;
const ORIGINAL_HZ = 440;
const TRACK_HZ = 220;
/** The track's tone amplitude (full scale 1): what the mix must carry, not lowered. */
const TRACK_AMPLITUDE = 0.2;
const suite = dubbingSuite('background-track-', 'unused');

const SCRIPT = [
  { start_seconds: 0.3, end_seconds: 2.3, text: 'Good morning.' },
  { start_seconds: 5.0, end_seconds: 7.0, text: 'See you tomorrow.' },
];

/** The source: speech over a 440 Hz tone, as a small video. */
async function makeSource(dir: string): Promise<Buffer> {
  const speech = await speak(SCRIPT.map((l) => l.text).join(' '), path.join(dir, 'speech.wav'));
  const soundtrack = path.join(dir, 'soundtrack.wav');
  await ffmpeg([
    '-i',
    speech,
    '-f',
    'lavfi',
    '-i',
    `sine=f=${ORIGINAL_HZ}:d=${SECONDS}:sample_rate=48000`,
    '-filter_complex',
    `[0:a]aresample=48000,apad,atrim=duration=${SECONDS}[s];[1:a]volume=0.2[t];[s][t]amix=inputs=2:duration=first:normalize=0[out]`,
    '-map',
    '[out]',
    '-c:a',
    'pcm_s16le',
    soundtrack,
  ]);
  return readFileSync(await makeVideo(path.join(dir, 'film.mp4'), SECONDS, soundtrack));
}

/** The M&E track: a 220 Hz tone of `seconds` (lavfi sine is made at 1/8 of full scale), a 44.1 kHz mono WAV (decoded to 48 kHz stereo for the mix). */
async function makeTrack(dir: string, seconds: number): Promise<Buffer> {
  const file = path.join(dir, `me-${seconds}.wav`);
  await ffmpeg(['-f', 'lavfi', '-i', `sine=f=${TRACK_HZ}:d=${seconds}:sample_rate=44100`, '-af', `volume=${TRACK_AMPLITUDE * 8}`, '-c:a', 'pcm_s16le', file]);
  return readFileSync(file);
}

/** PUTs every part of `bytes` to its URL in `transfer`; the parts list to complete with. */
async function sendParts(transfer: { part_size_bytes: number; parts: { part_number: number; url: string }[] }, bytes: Buffer) {
  const parts = splitParts(bytes, transfer.part_size_bytes);
  const completed = [];
  for (const part of transfer.parts) {
    const res = await putPart(part.url, parts[part.part_number - 1]!);
    expect(res.status).toBe(200);
    completed.push({ part_number: part.part_number, etag: res.etag! });
  }
  return completed;
}

const complete = (tenant: TestTenant, id: string, what: 'upload' | 'background_track', parts: { part_number: number; etag: string }[]) =>
  request(suite.api.baseUrl, 'POST', `/v1/dubbing/projects/${id}/${what}/complete`, { headers: bearer(tenant.key), body: { parts } });

/** The published WAV's left channel, as floats of full scale. */
async function publishedLeft(id: string): Promise<Float64Array> {
  const row = await suite.api.db.selectFrom('deliverables').select('storage_key').where('project_id', '=', id).where('format', '=', 'wav').executeTakeFirstOrThrow();
  const bytes = readFileSync(await suite.api.blobStore.toLocalFile(row.storage_key, suite.dir));
  const info = readWavInfo(bytes);
  expect([info.sampleRate, info.channels, info.bitsPerSample]).toEqual([RATE, 2, 16]);
  const frames = info.dataBytes / 4;
  const left = new Float64Array(frames);
  for (let f = 0; f < frames; f++) left[f] = bytes.readInt16LE(info.dataOffset + 4 * f) / 32768;
  return left;
}

/** The amplitude of the `hz` component of `samples` over [from, to) seconds (Goertzel). */
function toneAmplitude(samples: Float64Array, hz: number, from: number, to: number): number {
  const [first, last] = [Math.floor(from * RATE), Math.floor(to * RATE)];
  const coefficient = 2 * Math.cos((2 * Math.PI * hz) / RATE);
  let [s1, s2] = [0, 0];
  for (let i = first; i < last; i++) {
    const s0 = samples[i]! + coefficient * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  const power = s1 * s1 + s2 * s2 - coefficient * s1 * s2;
  return (2 * Math.sqrt(Math.max(0, power))) / (last - first);
}

const db = (ratio: number) => 20 * Math.log10(ratio);

describe('a project with its own music-and-effects track', () => {
  let tenant: TestTenant;
  let id: string;

  it('uploads the track beside the source, refuses the source complete before it, and plays the track under the dub at full level instead of the original', async () => {
    tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
    const [film, track] = [await makeSource(suite.dir), await makeTrack(suite.dir, SECONDS)];
    await suite.worker.use();
    const created = await createProject(
      suite.api,
      tenant,
      projectBody({
        source: { type: 'upload', file_name: 'film.mp4', size_bytes: film.length },
        background_track: { file_name: 'me.wav', size_bytes: track.length },
        transcript: { format: 'json', content: JSON.stringify(SCRIPT) },
        // The track's level is compared as it was laid: no program gain (docs/audio.md#presets).
        loudness: 'none',
      }),
    );
    expect(created.status).toBe(201);
    const project = created.body.data;
    id = project.id;
    expect(project.background_track).toEqual({ file_name: 'me.wav', size_bytes: track.length });
    // Its own upload, the same shape as the source's.
    const trackTransfer = project.transfer.background_track;
    expect(trackTransfer).toMatchObject({ part_size_bytes: 64 * 1024, part_count: Math.ceil(track.length / (64 * 1024)) });
    expect(trackTransfer.upload_id).not.toBe(project.transfer.upload_id);
    expect(trackTransfer.parts).toHaveLength(trackTransfer.part_count);

    const sourceParts = await sendParts(project.transfer, film);
    const early = await complete(tenant, id, 'upload', sourceParts);
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({ type: 'conflict_error', code: 'background_track_incomplete' });
    expect((await getProjectView(suite.api, tenant, id)).status).toBe('awaiting_upload');

    const trackParts = await sendParts(trackTransfer, track);
    // The view shows which of the track's parts arrived, as it does the source's.
    const resumed = (await request(suite.api.baseUrl, 'GET', `/v1/dubbing/projects/${id}?include_transfer=true`, { headers: bearer(tenant.key) })).body.data;
    expect(resumed.transfer.background_track.parts.every((p: { uploaded: boolean }) => p.uploaded)).toBe(true);
    const done = await complete(tenant, id, 'background_track', trackParts);
    expect(done.status).toBe(200);
    expect(done.body.data).toEqual({ id, background_track: { file_name: 'me.wav', size_bytes: track.length, completed: true } });
    expect((await complete(tenant, id, 'background_track', trackParts)).status).toBe(200); // safe to repeat
    const otherList = await complete(tenant, id, 'background_track', trackParts.slice(1));
    expect(otherList.status).toBe(409);
    expect(otherList.body.error.code).toBe('upload_already_completed');
    // A completed track has nothing left to send: its block is gone.
    const after = (await request(suite.api.baseUrl, 'GET', `/v1/dubbing/projects/${id}?include_transfer=true`, { headers: bearer(tenant.key) })).body.data;
    expect(after.transfer.background_track).toBeUndefined();

    expect((await complete(tenant, id, 'upload', sourceParts)).status).toBe(200);
    const finished = await waitForProjectView(suite.api, tenant, id, 'the dub', (p) => p.status === 'completed' || p.status === 'failed', 180_000);
    expect(finished).toMatchObject({ status: 'completed', background: 'duck', background_track: { file_name: 'me.wav', size_bytes: track.length } });

    const mix = await publishedLeft(id);
    expect(mix.length).toBeGreaterThanOrEqual(Math.floor((SECONDS - 0.1) * RATE));
    const placed = (await listLanguageSegments(suite.api.db, id, 'es_es')).map((l) => ({ start: l.placed_start_seconds!, end: l.placed_end_seconds! }));
    expect(placed).toHaveLength(2);
    // Between the sentences, past every fade: the track's tone at its own level, none of the original's.
    const gap = { from: placed[0]!.end + 0.3, to: placed[1]!.start - 0.1 };
    expect(gap.to - gap.from).toBeGreaterThan(1);
    const trackInGap = toneAmplitude(mix, TRACK_HZ, gap.from, gap.to);
    const originalInGap = toneAmplitude(mix, ORIGINAL_HZ, gap.from, gap.to);
    console.log(
      `gap ${gap.from.toFixed(2)}–${gap.to.toFixed(2)} s: track tone ${db(trackInGap).toFixed(1)} dBFS (made at ${db(TRACK_AMPLITUDE).toFixed(1)}), original tone ${db(originalInGap).toFixed(1)} dBFS`,
    );
    expect(Math.abs(db(trackInGap / TRACK_AMPLITUDE))).toBeLessThan(0.5);
    expect(db(originalInGap / trackInGap)).toBeLessThan(-40);
    // Under each dubbed sentence: not ducked (within 1 dB of the gap), and still none of the original.
    for (const line of placed) {
      const [from, to] = [line.start + 0.05, line.end - 0.05];
      const under = toneAmplitude(mix, TRACK_HZ, from, to);
      console.log(`sentence ${from.toFixed(2)}–${to.toFixed(2)} s: track tone ${db(under).toFixed(1)} dBFS`);
      expect(Math.abs(db(under / trackInGap))).toBeLessThan(1);
      expect(db(toneAmplitude(mix, ORIGINAL_HZ, from, to) / under)).toBeLessThan(-20);
    }
    // The revision records the bed as it was laid: full level, no ducking.
    const timeline = await readRevisionTimeline(suite.api.blobStore, revisionKeyPrefix(id, 'es_es', 1));
    expect(timeline).toMatchObject({ backgroundVolume: 1, background: 'duck' });
    expect(timeline!.ducking).toBeUndefined();
  }, 300_000);

  it('a regeneration of one line still splices its span into the published files', async () => {
    const line = (await listLanguageSegments(suite.api.db, id, 'es_es'))[1]!;
    const edit = await request(suite.api.baseUrl, 'PATCH', `/v1/dubbing/projects/${id}/languages/es_es/segments/${line.id}`, { headers: bearer(tenant.key), body: { text: 'Hasta mañana.' } });
    expect(edit.status).toBe(200);
    const counted = countingMedia();
    await suite.worker.use({ media: counted.media });
    const res = await postRegenerate(suite.api, tenant, id, { max_billable_seconds: 60, preview_only: false }, randomUUID());
    expect(res.status).toBe(200);
    await waitForProjectView(suite.api, tenant, id, 'revision 2', (p) => p.languages[0]?.revision === 2, 120_000);
    const called = counted.calls.map((c) => c.name);
    const spans = counted.calls.filter((c) => c.name === 'renderTimelineStems' && (c.args[0] as { span?: unknown }).span);
    expect(called.filter((n) => n === 'renderTimelineBuses' || n === 'renderTimelineToMp3AndWav')).toEqual([]);
    expect(counted.calls.filter((c) => c.name === 'renderTimelineStems').length).toBe(spans.length);
    expect(spans).toHaveLength(1);
    // The span was mixed over the track at its recorded level.
    const span = spans[0]!.args[0] as { background?: { volume: number; duck?: unknown } };
    expect(span.background).toMatchObject({ volume: 1 });
    expect(span.background!.duck).toBeUndefined();
  }, 180_000);

  it('fails a track that is not as long as the source as invalid_background_track: the hold released, nothing charged', async () => {
    const other = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
    const [film, short] = [await makeSource(suite.dir), await makeTrack(suite.dir, SECONDS - 3)];
    await suite.worker.use();
    const created = await createProject(
      suite.api,
      other,
      projectBody({ source: { type: 'upload', file_name: 'film.mp4', size_bytes: film.length }, background_track: { file_name: 'short-me.wav', size_bytes: short.length } }),
    );
    expect(created.status).toBe(201);
    const project = created.body.data;
    expect((await complete(other, project.id, 'background_track', await sendParts(project.transfer.background_track, short))).status).toBe(200);
    expect((await complete(other, project.id, 'upload', await sendParts(project.transfer, film))).status).toBe(200);
    const failed = await waitForProjectView(suite.api, other, project.id, 'the failure', (p) => p.status === 'failed' || p.status === 'completed', 90_000);
    expect(failed.failure.code).toBe('invalid_background_track');
    expect(failed.failure.message).toMatch(/short-me\.wav lasts 5\.\d\d s and the source 8\.\d\d s; they may differ by 0\.50 s at most/);
    expect(failed.usage).toMatchObject({ state: 'released', billable_seconds: null, charged_seconds: 0 });
    const ledger = await suite.api.db.selectFrom('credit_ledger').select(['kind', 'amount']).where('project_id', '=', project.id).orderBy('id').execute();
    expect(ledger).toEqual([
      { kind: 'hold', amount: 600 },
      { kind: 'release', amount: 600 },
    ]);
    expect(await getBalance(suite.api.db, other.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 0 });
  }, 120_000);

  it('expires with its source: the upload-expiry schedule fails the project and drops both uploads', async () => {
    const other = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
    await suite.worker.use();
    const project = (await createProject(suite.api, other, projectBody({ background_track: { file_name: 'me.wav', size_bytes: 1000 } }))).body.data;
    await sendParts(project.transfer.background_track, Buffer.alloc(1000, 7));
    const trackDir = path.join(suite.api.config.storage.localDir, 'uploads', project.transfer.background_track.upload_id);
    expect(existsSync(trackDir)).toBe(true);
    await suite.api.db
      .updateTable('uploads')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('project_id', '=', project.id)
      .execute();
    await suite.api.temporal.workflow.execute('uploadExpiryWorkflow', { taskQueue: suite.api.config.temporal.taskQueue, workflowId: `upload-expiry-track-${project.id}` });
    expect(await getProjectView(suite.api, other, project.id)).toMatchObject({ status: 'failed', failure: { code: 'upload_expired' }, usage: { state: 'released', charged_seconds: 0 } });
    expect(existsSync(trackDir)).toBe(false);
    expect(await getBalance(suite.api.db, other.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 0 });
  }, 60_000);

  it('is aborted with its source when the project is cancelled awaiting its upload', async () => {
    const other = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
    const project = (await createProject(suite.api, other, projectBody({ background_track: { file_name: 'me.wav', size_bytes: 1000 } }))).body.data;
    await sendParts(project.transfer.background_track, Buffer.alloc(1000, 7));
    const trackDir = path.join(suite.api.config.storage.localDir, 'uploads', project.transfer.background_track.upload_id);
    expect(existsSync(trackDir)).toBe(true);
    const cancelled = await request(suite.api.baseUrl, 'POST', `/v1/dubbing/projects/${project.id}/cancel`, { headers: { ...bearer(other.key), 'idempotency-key': randomUUID() }, body: {} });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'failed', failure: { code: 'cancelled' } });
    expect(existsSync(trackDir)).toBe(false);
  });

  it('refuses bad background_track inputs with named 400s, writing nothing', async () => {
    const other = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
    const before = await workspaceRowCounts(suite.api, other.workspace.id);
    const track = { file_name: 'me.wav', size_bytes: 1000 };
    const cases: [Record<string, unknown>, string][] = [
      [{ source: { type: 'youtube', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }, background_track: track }, 'background_track'],
      [{ background: 'drop', background_track: track }, 'background_track'],
      [{ background_track: { file_name: 'me.wav', size_bytes: suite.api.config.uploads.maxBytes + 1 } }, 'background_track.size_bytes'],
      [{ background_track: { file_name: 'a/b.wav', size_bytes: 1000 } }, 'background_track.file_name'],
      [{ background_track: { file_name: 'me.wav', size_bytes: 0 } }, 'background_track.size_bytes'],
      [{ background_track: { file_name: 'me.wav' } }, 'background_track.size_bytes'],
    ];
    for (const [overrides, param] of cases) {
      const res = await createProject(suite.api, other, projectBody(overrides));
      expect([res.status, res.body.error?.param]).toEqual([400, param]);
      expect(res.body.error.type).toBe('invalid_request_error');
    }
    expect(await workspaceRowCounts(suite.api, other.workspace.id)).toEqual(before);
    // A project without a track has nothing to complete there.
    const plain = (await createProject(suite.api, other, projectBody())).body.data;
    expect(plain.background_track).toBeNull();
    expect(plain.transfer.background_track).toBeUndefined();
    const res = await complete(other, plain.id, 'background_track', [{ part_number: 1, etag: 'x' }]);
    expect([res.status, res.body.error.code]).toEqual([400, 'invalid_request']);
  });
});
