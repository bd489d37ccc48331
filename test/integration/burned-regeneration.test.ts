import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createLocalEngines } from '../../src/engines';
import type { VideoStretchesSpec } from '../../src/engines/media/media-engine';
import { listLanguageSegments, type LanguageSegment } from '../../src/db/language-segments';
import { blobKeys } from '../../src/db/uploads';
import { revisionFileKey, revisionKeyPrefix } from '../../src/pipeline/storage-keys';
import { toBurnedCaptions } from '../../src/publish/burned-captions';
import { parseVtt, type Cue } from '../../src/publish/captions';
import { runProcess } from '../../src/engines/run-process';
import { countingMedia } from '../helpers/counting-media';
import { dubbingSuite } from '../helpers/dubbing-suite';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { ffmpeg } from '../helpers/media-fixtures';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { postRegenerate } from '../helpers/regenerations';
import { request } from '../helpers/test-api';

// A regeneration of a language whose captions are burned into the picture (docs/video.md#regenerations),
// on the real stack: one line of a 24-second dub is rewritten, and the new video encodes again only
// the GOPs around the captions that changed, joined to the published GOPs copied. Checked against
// the published video (the same frames where the captions did not change) and a whole mux of the
// new cues (the same length and frames, the new words where they changed).

const SECONDS = 24;
const suite = dubbingSuite('burned-regeneration-', 'Good morning. The weather is nice today. The house is quiet. See you tomorrow. Goodbye.', { seconds: SECONDS });

const SCRIPT = [
  { start_seconds: 0.5, end_seconds: 2.5, text: 'Good morning.' },
  { start_seconds: 5.0, end_seconds: 7.0, text: 'The weather is nice today.' },
  { start_seconds: 10.0, end_seconds: 12.0, text: 'The house is quiet.' },
  { start_seconds: 15.0, end_seconds: 17.0, text: 'See you tomorrow.' },
  { start_seconds: 20.0, end_seconds: 22.0, text: 'Goodbye.' },
];

const local = (key: string) => suite.api.blobStore.toLocalFile(key, suite.dir);
const lines = (id: string) => listLanguageSegments(suite.api.db, id, 'es_es');
const videoKey = async (id: string) =>
  (await suite.api.db.selectFrom('deliverables').select('storage_key').where('project_id', '=', id).where('format', '=', 'mp4').executeTakeFirstOrThrow()).storage_key;
const cuesOf = async (prefix: string): Promise<Cue[]> => parseVtt(readFileSync(await local(revisionFileKey(prefix, 'vtt')), 'utf8'));
/** One frame at `seconds` as 8-bit gray pixels. */
const frameAt = (file: string, seconds: number) => ffmpeg(['-ss', seconds.toFixed(3), '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1']);
const middle = (c: Cue) => (c.startSeconds + c.endSeconds) / 2;

/** The share of the lower third's pixels (where captions sit) that two gray frames show clearly differently. */
function lowerThirdChanged(a: Buffer, b: Buffer, width = 320): number {
  expect(a.length).toBe(b.length);
  const from = Math.floor((a.length / width) * (2 / 3)) * width;
  let changed = 0;
  for (let i = from; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > 48) changed++;
  return changed / (a.length - from);
}

/** Frames counted and the duration, by ffprobe; the whole file decoded, failing on any error. */
async function played(file: string): Promise<{ frames: number; seconds: number }> {
  const { stdout } = await runProcess('ffprobe', ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=nb_read_frames:format=duration', '-of', 'json', file], {
    timeoutMs: 60_000,
  });
  const probed = JSON.parse(stdout.toString('utf8')) as { streams: { nb_read_frames: string }[]; format: { duration: string } };
  const decoded = await runProcess('ffmpeg', ['-v', 'error', '-xerror', '-i', file, '-f', 'null', '-'], { timeoutMs: 60_000 });
  expect(decoded.stderr).toBe('');
  return { frames: Number(probed.streams[0]!.nb_read_frames), seconds: Number(probed.format.duration) };
}

async function editLine(tenant: TestTenant, id: string, line: LanguageSegment, text: string): Promise<void> {
  const res = await request(suite.api.baseUrl, 'PATCH', `/v1/dubbing/projects/${id}/languages/es_es/segments/${line.id}`, { headers: bearer(tenant.key), body: { text } });
  expect(res.status).toBe(200);
}

async function regenerate(tenant: TestTenant, id: string, revision: number): Promise<void> {
  const res = await postRegenerate(suite.api, tenant, id, { max_billable_seconds: 60, preview_only: false }, randomUUID());
  expect(res.status).toBe(200);
  await waitForProjectView(suite.api, tenant, id, `revision ${revision}`, (p) => p.languages[0]?.revision === revision, 180_000);
}

describe('a regeneration of one line with burned captions', () => {
  let tenant: TestTenant;
  let id: string;

  it('encodes again only the GOPs whose captions changed: the published frames elsewhere, the new words where they changed', async () => {
    tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: 10 });
    await suite.worker.use();
    const created = await createProject(
      suite.api,
      tenant,
      projectBody({
        source: { type: 'upload', file_name: 'clip.mp4', size_bytes: suite.clip.length },
        transcript: { format: 'json', content: JSON.stringify(SCRIPT) },
        video: { burned_captions: true },
      }),
    );
    expect(created.status).toBe(201);
    id = created.body.data.id;
    expect((await uploadAndComplete(suite.api, tenant, created.body.data, suite.clip)).status).toBe(200);
    await waitForProjectView(suite.api, tenant, id, 'the dub', (p) => p.status === 'completed' || p.status === 'failed', 180_000);
    const [r1, r2] = [revisionKeyPrefix(id, 'es_es', 1), revisionKeyPrefix(id, 'es_es', 2)];
    const before = await local(await videoKey(id));

    await editLine(tenant, id, (await lines(id))[2]!, 'La casa está tranquila.');
    const counted = countingMedia();
    await suite.worker.use({ media: counted.media });
    await regenerate(tenant, id, 2);

    // Narrowed: the stretches were encoded, not the whole picture.
    const called = counted.calls.map((c) => c.name);
    expect(called).not.toContain('muxVideo');
    const joins = counted.calls.filter((c) => c.name === 'muxVideoStretches');
    expect(joins).toHaveLength(1);
    const { stretches } = joins[0]!.args[0] as VideoStretchesSpec;
    const encodedSeconds = stretches.reduce((sum, s) => sum + s.endSeconds - s.startSeconds, 0);
    expect(encodedSeconds).toBeGreaterThan(0);
    expect(encodedSeconds).toBeLessThanOrEqual(SECONDS / 3);

    const [cues1, cues2] = [await cuesOf(r1), await cuesOf(r2)];
    expect(cues2[2]!.text).toBe('La casa está tranquila.');
    expect(cues1[2]!.text).not.toBe(cues2[2]!.text);
    const changed = cues2[2]!;
    expect(stretches.some((s) => s.startSeconds <= changed.startSeconds && s.endSeconds >= changed.endSeconds)).toBe(true);

    // A whole mux of the same source, MP3 and new cues: what the regeneration stands for.
    expect(await videoKey(id)).toBe(`${r2}/dub.mp4`);
    const after = await local(await videoKey(id));
    const burn = path.join(suite.dir, 'new-captions.ass');
    writeFileSync(burn, toBurnedCaptions(cues2));
    const whole = path.join(suite.dir, 'whole.mp4');
    const source = await local(blobKeys.source(id));
    await createLocalEngines().media.muxVideo(
      { source, dubAudio: await local(revisionFileKey(r2, 'mp3')), dubLanguage: 'spa', sourceLanguage: 'eng', burnCaptions: burn, sourceSeconds: SECONDS },
      whole,
    );

    // It plays end to end: as long as the whole mux, as many frames, decoded without an error.
    const [joined, wholePlayed] = [await played(after), await played(whole)];
    expect(joined.frames).toBe(wholePlayed.frames);
    expect(Math.abs(joined.seconds - wholePlayed.seconds)).toBeLessThan(0.05);
    expect(Math.abs(joined.seconds - SECONDS)).toBeLessThan(0.1);

    // The unchanged captions are the published frames, pixel for pixel; the changed one shows the new words.
    const outside = [cues2[0]!, cues2[1]!, cues2[3]!, cues2[4]!].filter((cue) => !stretches.some((s) => middle(cue) >= s.startSeconds && middle(cue) < s.endSeconds));
    expect(outside.length).toBeGreaterThanOrEqual(3);
    for (const cue of outside) expect((await frameAt(after, middle(cue))).equals(await frameAt(before, middle(cue)))).toBe(true);
    const inChanged = middle(changed);
    expect(lowerThirdChanged(await frameAt(after, inChanged), await frameAt(before, inChanged))).toBeGreaterThan(0.005);
    expect(lowerThirdChanged(await frameAt(after, inChanged), await frameAt(whole, inChanged))).toBeLessThan(0.001);
  }, 360_000);

  it('muxes the whole again when the published captions cannot be read', async () => {
    await suite.api.blobStore.delete(revisionFileKey(revisionKeyPrefix(id, 'es_es', 2), 'vtt'));
    await editLine(tenant, id, (await lines(id))[3]!, 'Hasta mañana.');
    const counted = countingMedia();
    await suite.worker.use({ media: counted.media });
    await regenerate(tenant, id, 3);
    const called = counted.calls.map((c) => c.name);
    expect(called.filter((n) => n === 'muxVideo')).toHaveLength(1);
    expect(called).not.toContain('muxVideoStretches');
    const after = await local(await videoKey(id));
    expect(Math.abs((await played(after)).seconds - SECONDS)).toBeLessThan(0.1);
  }, 360_000);
});
