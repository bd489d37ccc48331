import path from 'node:path';
import { readFileSync } from 'node:fs';
import { buildDialogClip, DIALOG_VOICES, type DialogClip } from '../../bench/lib/dialog-clip';
import { diarizationError } from '../../bench/lib/diarization-error';
import { startTestApi, type TestApi } from '../helpers/test-api';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { ffmpeg, ffprobe, makeTempDir, makeVideo, removeTempDir } from '../helpers/media-fixtures';
import { listLanguageSegments } from '../../src/db/language-segments';
import { createLocalEngines } from '../../src/engines';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { swappableWorker } from '../helpers/swappable-worker';

// Speakers found in the audio (docs/speakers.md#finding-speakers), on the real stack: a dialog
// of two installed voices with known turns (Festival's us-slt and kal) is recognized by
// pocketsphinx and split into speaker turns by the acoustic diarizer in the worker. Found: two
// speakers whose segments match the turns (diarization error within the 10 %, 0.25 s
// collar), each with a voice of their own, heard apart in the dub (median pitch 20 % apart); `num_speakers: 1` makes one speaker.

let api: TestApi;
let dir: string;
let dialog: DialogClip;
let video: Buffer;
const worker = swappableWorker(() => api);

beforeAll(async () => {
  dir = makeTempDir('speaker-detection-');
  dialog = await buildDialogClip(
    [DIALOG_VOICES.slt, DIALOG_VOICES.kal],
    [
      { speaker: 0, text: 'Hello everyone and welcome to the kitchen.' },
      { speaker: 1, text: 'Hello. Today I will cook rice with fresh vegetables.' },
      { speaker: 0, text: 'Do you add salt?' },
      { speaker: 1, text: 'Yes. First I will wash the rice.' },
      { speaker: 0, text: 'How long does it cook?' },
      { speaker: 1, text: 'About twenty minutes, with the lid on.' },
    ],
    path.join(dir, 'dialog.wav'),
  );
  video = readFileSync(await makeVideo(path.join(dir, 'dialog.mp4'), Math.ceil(dialog.seconds), dialog.wav));
  api = await startTestApi({ UPLOAD_PART_SIZE_BYTES: String(256 * 1024) });
  await worker.use();
}, 120_000);
afterAll(async () => {
  await worker.stop();
  await api?.close();
  if (dir) removeTempDir(dir);
});

async function dub(tenant: TestTenant, numSpeakers: number): Promise<string> {
  const created = await createProject(
    api,
    tenant,
    projectBody({ target_locales: ['es_es'], num_speakers: numSpeakers, source: { type: 'upload', file_name: 'dialog.mp4', size_bytes: video.length } }),
  );
  expect(created.status).toBe(201);
  expect(created.body.data.speakers).toEqual({ num_speakers: numSpeakers, items: [] });
  expect((await uploadAndComplete(api, tenant, created.body.data, video)).status).toBe(200);
  const done = await waitForProjectView(api, tenant, created.body.data.id, 'the dub', (p) => p.status === 'completed' || p.status === 'failed', 180_000);
  expect(done.status).toBe('completed');
  return created.body.data.id;
}

const segmentsOf = (id: string) => api.db.selectFrom('source_segments').select(['start_seconds', 'end_seconds', 'speaker_id']).where('project_id', '=', id).orderBy('position').execute();

/** The median pitch of one speaker's dubbed Spanish lines, their clips joined, measured as the diarizer measures a speaker. */
async function dubbedPitch(projectId: string, speakerId: string): Promise<number> {
  const lines = (await listLanguageSegments(api.db, projectId, 'es_es')).filter((l) => l.speaker_id === speakerId && l.clip_key !== null);
  expect(lines.length).toBeGreaterThan(0);
  const files = await Promise.all(lines.map((l) => api.blobStore.toLocalFile(l.clip_key!, dir)));
  const joined = path.join(dir, `${speakerId}.wav`);
  await ffmpeg(['-y', ...files.flatMap((f) => ['-i', f]), '-filter_complex', `concat=n=${files.length}:v=0:a=1`, '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', joined]);
  const seconds = (await ffprobe(joined)).durationSeconds;
  const [profile] = await createLocalEngines().diarizer.profile(joined, [{ startSeconds: 0, endSeconds: seconds, speaker: 0 }]);
  expect(profile!.medianPitchHz).not.toBeNull();
  return profile!.medianPitchHz!;
}

/**
 * Segments as speaker turns: a run of one speaker's segments is their turn from its first word to
 * its last, the pauses inside included, as the reference turns are (the recognizer cuts a turn of
 * two sentences in two; that pause is not a speaker error).
 */
function speakerTurns(segments: { start_seconds: number; end_seconds: number; speaker_id: string | null }[]) {
  const turns: { startSeconds: number; endSeconds: number; speaker: string }[] = [];
  for (const s of segments) {
    const last = turns[turns.length - 1];
    if (last && last.speaker === s.speaker_id) last.endSeconds = s.end_seconds;
    else turns.push({ startSeconds: s.start_seconds, endSeconds: s.end_seconds, speaker: s.speaker_id! });
  }
  return turns;
}

it('a recognized two-voice dialog gets two speakers, its turns within the collar, each speaker with a voice of their own', async () => {
  const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: 1 });
  const id = await dub(tenant, 0);
  const speakers = await api.db.selectFrom('project_speakers').selectAll().where('project_id', '=', id).orderBy('position').execute();
  expect(speakers.map((s) => s.label)).toEqual(['Speaker 1', 'Speaker 2']);
  // us-slt speaks higher than kal: the pitch measured says so.
  expect(speakers[0]!.median_pitch_hz!).toBeGreaterThan(speakers[1]!.median_pitch_hz! * 1.2);
  const errors = diarizationError(dialog.turns, speakerTurns(await segmentsOf(id)));
  expect(errors.confusionSeconds).toBe(0);
  expect(errors.der).toBeLessThanOrEqual(0.1);
  const voices = await api.db
    .selectFrom('speaker_voices')
    .select(['speaker_id', 'voice'])
    .where('locale', '=', 'es_es')
    .where(
      'speaker_id',
      'in',
      speakers.map((s) => s.id),
    )
    .execute();
  expect(new Set(voices.map((v) => v.voice)).size).toBe(2);
  // The dub has two measurably different voices, each on its own speaker's lines: median pitch apart by 20 % or more.
  const pitch = await Promise.all(speakers.map((s) => dubbedPitch(id, s.id)));
  expect(Math.max(...pitch) / Math.min(...pitch)).toBeGreaterThanOrEqual(1.2);
}, 240_000);

it('num_speakers 1 makes one speaker, whoever speaks', async () => {
  const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: 1 });
  const id = await dub(tenant, 1);
  const segments = await segmentsOf(id);
  expect(new Set(segments.map((s) => s.speaker_id)).size).toBe(1);
  expect((await api.db.selectFrom('project_speakers').select('label').where('project_id', '=', id).execute()).map((s) => s.label)).toEqual(['Speaker 1']);
}, 240_000);
