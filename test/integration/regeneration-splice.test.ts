import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderDub } from '../../src/pipeline/render-dub';
import { REVISION_FILES, revisionFileKey, revisionKeyPrefix } from '../../src/pipeline/storage-keys';
import { readRevisionTimeline } from '../../src/pipeline/revision-timeline';
import { createLocalEngines } from '../../src/engines';
import { detectCapabilities } from '../../src/engines/capabilities';
import { readWavInfo } from '../../src/engines/tts/wav-file';
import { listLanguageSegments, type LanguageSegment } from '../../src/db/language-segments';
import { blobKeys } from '../../src/db/uploads';
import { iso6392 } from '../../src/shared/iso-639-2';
import { parseVtt } from '../../src/publish/captions';
import { countingMedia } from '../helpers/counting-media';
import { dubbingSuite } from '../helpers/dubbing-suite';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { ffmpeg, ffprobe } from '../helpers/media-fixtures';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { postRegenerate } from '../helpers/regenerations';
import { request } from '../helpers/test-api';

// A regeneration renders only what changed (docs/editing.md#regenerate), on the real stack: the
// API, a real worker with the real engines, PostgreSQL, Temporal and the blob store. One line of
// a 14-second dub is rewritten; the regeneration mixes again only the span around it and
// splices it into copies of the published WAV, MP3 and MP4. Checked against a whole render of the
// same lines: the WAV is the same to the byte, its other spans untouched; the MP3 decodes
// cleanly to the same length; the thumbnail is the published one; the quality figures are the
// whole render's, computed without reading the mix.

const CPS = 10;
const SECONDS = 14;
const suite = dubbingSuite('regeneration-splice-', 'Good morning. The weather is nice today. The house is quiet. See you tomorrow.', { seconds: SECONDS });

/** The customer's script: four lines with room between them, as speech usually has. */
const SCRIPT = [
  { start_seconds: 0.3, end_seconds: 2.3, text: 'Good morning.' },
  { start_seconds: 4.0, end_seconds: 6.0, text: 'The weather is nice today.' },
  { start_seconds: 8.0, end_seconds: 10.0, text: 'The house is quiet.' },
  { start_seconds: 11.5, end_seconds: 13.5, text: 'See you tomorrow.' },
];

const blob = async (key: string) => readFileSync(await suite.api.blobStore.toLocalFile(key, suite.dir));
const lines = (id: string) => listLanguageSegments(suite.api.db, id, 'es_es');
const deliverables = async (id: string) =>
  Object.fromEntries(
    (
      await suite.api.db.selectFrom('deliverables').select(['format', 'storage_key', 'size_bytes']).where('project_id', '=', id).where('type', 'not in', ['dialog_stem', 'background_stem']).execute()
    ).map((d) => [d.format, d]),
  );
/** The media calls that mixed the whole timeline, and those that mixed a span of it (docs/audio.md#normalization). */
type Calls = ReturnType<typeof countingMedia>['calls'];
const wholeMixes = (calls: Calls) => calls.filter((c) => c.name === 'renderTimelineBuses' || (c.name === 'renderTimelineStems' && !(c.args[0] as { span?: unknown }).span));
const spanMixes = (calls: Calls) => calls.filter((c) => c.name === 'renderTimelineStems' && (c.args[0] as { span?: unknown }).span);
const language = (id: string) => suite.api.db.selectFrom('project_languages').select(['revision', 'dub_quality', 'drift_seconds']).where('project_id', '=', id).executeTakeFirstOrThrow();
/** Decoded samples, failing on any decoding error. */
const decode = async (file: string) => ffmpeg(['-xerror', '-i', file, '-f', 's16le', '-ac', '2', '-ar', '48000', 'pipe:1']);

async function regenerate(tenant: TestTenant, id: string, revision: number): Promise<void> {
  const res = await postRegenerate(suite.api, tenant, id, { max_billable_seconds: 60, preview_only: false }, randomUUID());
  expect(res.status).toBe(200);
  expect(res.body.data.regeneration).toMatchObject({ segments: 1, within_limit: true });
  await waitForProjectView(suite.api, tenant, id, `revision ${revision}`, (p) => p.languages[0]?.revision === revision, 120_000);
}

async function editLine(tenant: TestTenant, id: string, line: LanguageSegment, text: string): Promise<void> {
  const res = await request(suite.api.baseUrl, 'PATCH', `/v1/dubbing/projects/${id}/languages/es_es/segments/${line.id}`, { headers: bearer(tenant.key), body: { text } });
  expect(res.status).toBe(200);
}

/** The same lines rendered whole, outside any workflow, under a prefix of the test's own. */
async function renderedWhole(id: string, keyPrefix: string) {
  const project = await suite.api.db
    .selectFrom('projects')
    .select(['name', 'source_duration_seconds', 'source_has_video', 'background', 'caption_rules', 'loudness'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const now = await lines(id);
  // Every line plays its published clip where it was placed: nothing is spoken again.
  expect(now.every((l) => l.rendered_text === l.text && l.clip_key !== null)).toBe(true);
  return renderDub(
    { blobStore: suite.api.blobStore, engines: createLocalEngines(), capabilities: await detectCapabilities(), log: { info: () => undefined } },
    {
      projectId: id,
      locale: 'es_es',
      lines: now,
      glossary: [],
      title: 'Test project',
      background: project.background,
      captionRules: project.caption_rules,
      loudness: project.loudness,
      durationSeconds: project.source_duration_seconds!,
      hasVideo: project.source_has_video!,
      keyPrefix,
      onTick: () => undefined,
    },
  );
}

// Both ways of laying the original under the dub that keep it (docs/background.md): ducking
// reaches past a changed clip (its fades and held pauses), so its spans are wider.
describe.each(['duck', 'keep'] as const)('a regeneration of one line, background %s', (background) => {
  let tenant: TestTenant;
  let id: string;

  it("splices the changed span into the published files: the WAV is a whole render's to the byte, the MP3 decodes cleanly to the same length", async () => {
    tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
    await suite.worker.use();
    const created = await createProject(
      suite.api,
      tenant,
      projectBody({ source: { type: 'upload', file_name: 'clip.mp4', size_bytes: suite.clip.length }, transcript: { format: 'json', content: JSON.stringify(SCRIPT) }, background, loudness: 'none' }),
    );
    expect(created.status).toBe(201);
    id = created.body.data.id;
    expect((await uploadAndComplete(suite.api, tenant, created.body.data, suite.clip)).status).toBe(200);
    await waitForProjectView(suite.api, tenant, id, 'the dub', (p) => p.status === 'completed' || p.status === 'failed', 120_000);
    const first = { lines: await lines(id), files: await deliverables(id) };
    expect(first.lines).toHaveLength(4);
    const r1 = revisionKeyPrefix(id, 'es_es', 1);
    expect(await suite.api.blobStore.stat(revisionFileKey(r1, 'timeline'))).not.toBeNull();

    const edited = first.lines[1]!;
    await editLine(tenant, id, edited, 'Hola, mundo. Hoy hace muy buen tiempo en la ciudad.');
    const counted = countingMedia();
    await suite.worker.use({ media: counted.media });
    await regenerate(tenant, id, 2);

    // Mixed again: one span, not the whole; the MP3's frames over it encoded again; no thumbnail drawn.
    const called = counted.calls.map((c) => c.name);
    expect(wholeMixes(counted.calls)).toEqual([]);
    expect(called.filter((n) => n === 'encodeMp3' || n === 'thumbnail')).toEqual([]);
    const mixes = spanMixes(counted.calls);
    expect(mixes).toHaveLength(1);
    const span = (mixes[0]!.args[0] as { span: { fromSample: number; toSample: number } }).span;
    expect(span.toSample - span.fromSample).toBeLessThan((SECONDS * 48_000) / 2);
    expect(called.filter((n) => n === 'encodeMp3Frames')).toHaveLength(1);

    const now = await lines(id);
    const files = await deliverables(id);
    const r2 = revisionKeyPrefix(id, 'es_es', 2);
    for (const format of ['mp3', 'wav', 'srt', 'vtt', 'png']) expect(files[format]!.storage_key.startsWith(`${r2}/`)).toBe(true);
    const [wav1, wav2] = [await blob(first.files.wav!.storage_key), await blob(files.wav!.storage_key)];
    expect(files.wav!.size_bytes).toBe(wav2.length);
    expect(files.mp3!.size_bytes).toBe((await blob(files.mp3!.storage_key)).length);

    // The same lines rendered whole: the spliced WAV is that render's, byte for byte.
    const whole = await renderedWhole(id, `projects/${id}/check`);
    const wholeWav = await blob(revisionFileKey(`projects/${id}/check`, 'wav'));
    expect(wav2.equals(wholeWav)).toBe(true);
    // Outside the span the published WAV is untouched, header included; inside it changed.
    const offset = readWavInfo(wav1).dataOffset;
    const [from, to] = [offset + span.fromSample * 4, offset + span.toSample * 4];
    expect(wav2.length).toBe(wav1.length);
    expect(wav2.subarray(0, from).equals(wav1.subarray(0, from))).toBe(true);
    expect(wav2.subarray(to).equals(wav1.subarray(to))).toBe(true);
    expect(wav2.subarray(from, to).equals(wav1.subarray(from, to))).toBe(false);
    // The span holds the edited line, old and new, and no other line.
    const spanSeconds = { from: span.fromSample / 48_000, to: span.toSample / 48_000 };
    expect(spanSeconds.from).toBeLessThanOrEqual(edited.placed_start_seconds!);
    expect(spanSeconds.to).toBeGreaterThanOrEqual(Math.max(edited.placed_end_seconds!, now[1]!.placed_end_seconds!));
    for (const other of [now[0]!, now[2]!, now[3]!]) expect(other.placed_end_seconds! <= spanSeconds.from || other.placed_start_seconds! >= spanSeconds.to).toBe(true);

    // The MP3 decodes without an error, to the length of the published one and of a whole encode.
    const mp3File = async (key: string) => suite.api.blobStore.toLocalFile(key, suite.dir);
    const [mp3One, mp3Two, mp3Whole] = await Promise.all([mp3File(first.files.mp3!.storage_key), mp3File(files.mp3!.storage_key), mp3File(revisionFileKey(`projects/${id}/check`, 'mp3'))]);
    const [pcm1, pcm2, pcmWhole] = await Promise.all([decode(mp3One), decode(mp3Two), decode(mp3Whole)]);
    expect(pcm2.length).toBe(pcm1.length);
    expect(pcm2.length).toBe(pcmWhole.length);
    expect((await ffprobe(mp3Two)).durationSeconds).toBe((await ffprobe(mp3One)).durationSeconds);
    expect(pcm2.equals(pcm1)).toBe(false);

    // The video is the published one with the new MP3's frames written over its dub track, not
    // muxed again: to the byte what a mux of the new MP3 makes (docs/video.md#regenerations).
    expect(called).not.toContain('muxVideo');
    expect(files.mp4!.storage_key).toBe(`${r2}/dub.mp4`);
    const mp4 = await blob(files.mp4!.storage_key);
    expect(files.mp4!.size_bytes).toBe(mp4.length);
    const muxedAgain = path.join(suite.dir, `remuxed-${background}.mp4`);
    await createLocalEngines().media.muxVideo(
      { source: await suite.api.blobStore.toLocalFile(blobKeys.source(id), suite.dir), dubAudio: mp3Two, dubLanguage: iso6392('es_es'), sourceLanguage: iso6392('en_us') },
      muxedAgain,
    );
    expect(mp4.equals(readFileSync(muxedAgain))).toBe(true);
    expect(mp4.equals(await blob(first.files.mp4!.storage_key))).toBe(false);

    // The title did not change: the thumbnail is the published one, copied under the new revision.
    expect((await blob(files.png!.storage_key)).equals(await blob(first.files.png!.storage_key))).toBe(true);
    // Captions rebuilt from the lines: the new words, the other cues as they were.
    const [cues1, cues2] = [parseVtt((await blob(first.files.vtt!.storage_key)).toString('utf8')), parseVtt((await blob(files.vtt!.storage_key)).toString('utf8'))];
    // Over 42 characters: shown as two even lines (docs/recognition.md#captions).
    expect(cues2[1]!.text).toBe('Hola, mundo. Hoy hace muy\nbuen tiempo en la ciudad.');
    expect([cues2[0], cues2[2], cues2[3]]).toEqual([cues1[0], cues1[2], cues1[3]]);
    // The quality figures and drift, from the timeline record, are the whole render's.
    const row = await language(id);
    expect(row.dub_quality).toEqual(whole.quality);
    expect(row.drift_seconds).toBeCloseTo(whole.driftSeconds, 9);
    expect(await suite.api.blobStore.stat(revisionFileKey(r2, 'timeline'))).not.toBeNull();
  }, 240_000);

  it('renders the whole when the published revision has no timeline record (rendered before there was one), with the same result', async () => {
    await suite.api.blobStore.delete(revisionFileKey(revisionKeyPrefix(id, 'es_es', 2), 'timeline'));
    await editLine(tenant, id, (await lines(id))[2]!, 'La casa está muy tranquila esta noche.');
    const counted = countingMedia();
    await suite.worker.use({ media: counted.media });
    await regenerate(tenant, id, 3);
    expect(wholeMixes(counted.calls)).toHaveLength(1);
    expect([...spanMixes(counted.calls), ...counted.calls.filter((c) => c.name === 'encodeMp3Frames')]).toEqual([]);
    const files = await deliverables(id);
    const whole = await renderedWhole(id, `projects/${id}/check3`);
    expect((await blob(files.wav!.storage_key)).equals(await blob(revisionFileKey(`projects/${id}/check3`, 'wav')))).toBe(true);
    expect((await language(id)).dub_quality).toEqual(whole.quality);
    // It writes a record again, so the next regeneration splices.
    expect(await suite.api.blobStore.stat(revisionFileKey(revisionKeyPrefix(id, 'es_es', 3), 'timeline'))).not.toBeNull();
    expect(path.basename(files.wav!.storage_key)).toBe(REVISION_FILES.wav);
  }, 240_000);

  it("renders the whole when the project's background mode is not the one the published revision was mixed with", async () => {
    const other = background === 'duck' ? 'keep' : 'duck';
    expect((await readRevisionTimeline(suite.api.blobStore, revisionKeyPrefix(id, 'es_es', 3)))?.background).toBe(background);
    // As an operator would change it: the API sets the mode at create only.
    await suite.api.db.updateTable('projects').set({ background: other }).where('id', '=', id).execute();
    await editLine(tenant, id, (await lines(id))[3]!, 'Hasta mañana, amigos.');
    const counted = countingMedia();
    await suite.worker.use({ media: counted.media });
    await regenerate(tenant, id, 4);
    expect(wholeMixes(counted.calls)).toHaveLength(1);
    expect(spanMixes(counted.calls)).toEqual([]);
    const whole = await renderedWhole(id, `projects/${id}/check4`);
    expect((await blob((await deliverables(id)).wav!.storage_key)).equals(await blob(revisionFileKey(`projects/${id}/check4`, 'wav')))).toBe(true);
    expect((await language(id)).dub_quality).toEqual(whole.quality);
    expect((await readRevisionTimeline(suite.api.blobStore, revisionKeyPrefix(id, 'es_es', 4)))?.background).toBe(other);
  }, 240_000);
});
