import { readFileSync } from 'node:fs';
import path from 'node:path';
import { listLanguageSegments } from '../../src/db/language-segments';
import { readWavInfo } from '../../src/engines/tts/wav-file';
import { dubbingSuite } from '../helpers/dubbing-suite';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { ffmpeg, makeVideo, speak } from '../helpers/media-fixtures';
import { createProject, getProjectView, projectBody, uploadAndComplete, waitForProjectView, workspaceRowCounts } from '../helpers/projects';

// The background modes (docs/background.md), measured on real renders: the same stereo source,
// script and language dubbed three times, once per mode, on the real API, worker and engines.
// Since the mix is a plain sum (amix normalize=0), `duck` minus `drop` is the original as `duck`
// lays it under the dub, sample for sample; `drop` is the dub alone.

const CPS = 10;
const SECONDS = 14;
const RATE = 48_000;
const suite = dubbingSuite('background-modes-', 'unused');

/** Four lines with room between them. */
const SCRIPT = [
  { start_seconds: 0.3, end_seconds: 2.3, text: 'Good morning.' },
  { start_seconds: 4.0, end_seconds: 6.0, text: 'The weather is nice today.' },
  { start_seconds: 8.0, end_seconds: 10.0, text: 'The house is quiet.' },
  { start_seconds: 11.5, end_seconds: 13.5, text: 'See you tomorrow.' },
];

/**
 * A stereo soundtrack as a film has one: the speaker in the centre, a bed of independent noise
 * left and right (ambience) and a tone in the centre (music), all continuous. Or the same mixed
 * down to mono.
 */
async function makeSource(dir: string, channels: 'stereo' | 'mono'): Promise<Buffer> {
  const speech = await speak(SCRIPT.map((l) => l.text).join(' '), path.join(dir, 'speech.wav'));
  const soundtrack = path.join(dir, `soundtrack-${channels}.wav`);
  await ffmpeg([
    '-i',
    speech,
    '-f',
    'lavfi',
    '-i',
    `anoisesrc=d=${SECONDS}:c=pink:a=0.08:seed=1`,
    '-f',
    'lavfi',
    '-i',
    `anoisesrc=d=${SECONDS}:c=pink:a=0.08:seed=2`,
    '-f',
    'lavfi',
    '-i',
    `sine=f=220:d=${SECONDS}:sample_rate=48000`,
    '-filter_complex',
    `[0:a]aresample=48000,apad,atrim=duration=${SECONDS},pan=stereo|c0=c0|c1=c0[s];[1:a][2:a]amerge=inputs=2[n];[3:a]volume=0.05,pan=stereo|c0=c0|c1=c0[t];` +
      '[s][n][t]amix=inputs=3:duration=first:normalize=0[out]',
    '-map',
    '[out]',
    '-ar',
    '48000',
    ...(channels === 'mono' ? ['-ac', '1'] : []),
    '-c:a',
    'pcm_s16le',
    soundtrack,
  ]);
  return readFileSync(await makeVideo(path.join(dir, `${channels}.mp4`), SECONDS, soundtrack));
}

/** The published WAV's samples, interleaved 16-bit stereo at 48 kHz. */
async function publishedPcm(id: string): Promise<Int16Array> {
  const row = await suite.api.db.selectFrom('deliverables').select('storage_key').where('project_id', '=', id).where('format', '=', 'wav').executeTakeFirstOrThrow();
  const bytes = readFileSync(await suite.api.blobStore.toLocalFile(row.storage_key, suite.dir));
  const info = readWavInfo(bytes);
  expect([info.sampleRate, info.channels, info.bitsPerSample]).toEqual([RATE, 2, 16]);
  const pcm = Buffer.from(bytes.subarray(info.dataOffset, info.dataOffset + info.dataBytes));
  return new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length / 2);
}

/** Energies over [from, to) seconds of `a` (minus `b` when given): both channels, and the centre and side. */
function energy(a: Int16Array, from: number, to: number, b?: Int16Array): { all: number; mid: number; side: number } {
  let all = 0;
  let mid = 0;
  let side = 0;
  const [first, last] = [Math.floor(from * RATE), Math.floor(to * RATE)];
  for (let f = first; f < last; f++) {
    const l = a[2 * f]! - (b?.[2 * f] ?? 0);
    const r = a[2 * f + 1]! - (b?.[2 * f + 1] ?? 0);
    all += l * l + r * r;
    mid += ((l + r) / 2) ** 2;
    side += ((l - r) / 2) ** 2;
  }
  const n = Math.max(1, last - first);
  return { all: all / n, mid: mid / n, side: side / n };
}

const db = (ratio: number) => 10 * Math.log10(ratio);

describe.each(['stereo', 'mono'] as const)('background modes on a real render of a %s source', (channels) => {
  let tenant: TestTenant;
  const ids: Record<'duck' | 'keep' | 'drop', string> = { duck: '', keep: '', drop: '' };
  const pcm: Partial<Record<'duck' | 'keep' | 'drop', Int16Array>> = {};
  let placed: { start: number; end: number }[];

  beforeAll(async () => {
    tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
  });

  it('dubs the same source in each mode, and GET shows the mode; a create without one ducks', async () => {
    const clip = await makeSource(suite.dir, channels);
    await suite.worker.use();
    for (const mode of ['duck', 'keep', 'drop'] as const) {
      const body = projectBody({
        name: `Background ${mode}`,
        source: { type: 'upload', file_name: `${channels}.mp4`, size_bytes: clip.length },
        transcript: { format: 'json', content: JSON.stringify(SCRIPT) },
        // duck is the default: that project names no mode.
        ...(mode === 'duck' ? {} : { background: mode }),
        // The modes compared at the levels they mix at: no loudness normalization (docs/audio.md), whose gain differs per mix.
        loudness: 'none',
      });
      const created = await createProject(suite.api, tenant, body);
      expect(created.status).toBe(201);
      expect(created.body.data.background).toBe(mode);
      ids[mode] = created.body.data.id;
      expect((await uploadAndComplete(suite.api, tenant, created.body.data, clip)).status).toBe(200);
    }
    for (const mode of ['duck', 'keep', 'drop'] as const) {
      const done = await waitForProjectView(suite.api, tenant, ids[mode], `the ${mode} dub`, (p) => p.status === 'completed' || p.status === 'failed', 180_000);
      expect(done).toMatchObject({ status: 'completed', background: mode });
      pcm[mode] = await publishedPcm(ids[mode]);
    }
    // The three dubs place their lines alike: the same clips, fitted the same.
    const lines = await Promise.all(Object.values(ids).map((id) => listLanguageSegments(suite.api.db, id, 'es_es')));
    placed = lines[0]!.map((l) => ({ start: l.placed_start_seconds!, end: l.placed_end_seconds! }));
    expect(placed).toHaveLength(4);
    for (const other of lines.slice(1)) expect(other.map((l) => ({ start: l.placed_start_seconds!, end: l.placed_end_seconds! }))).toEqual(placed);
    expect(pcm.duck!.length).toBe(pcm.keep!.length);
    expect(pcm.duck!.length).toBe(pcm.drop!.length);
  }, 400_000);

  it('duck: under each dubbed sentence the original is at least 20 dB below the dub (a stereo one without its centre); between sentences it is within 3 dB of keep', () => {
    const { duck, keep, drop } = pcm as Record<'duck' | 'keep' | 'drop', Int16Array>;
    for (const [i, line] of placed.entries()) {
      // Inside the sentence, past the fade down (it ends where the clip starts).
      const [from, to] = [line.start + 0.05, line.end - 0.05];
      const dub = energy(drop, from, to);
      const original = energy(duck, from, to, drop);
      const kept = energy(keep, from, to, drop);
      const below = db(original.all / dub.all);
      const [centre, sides] = [db(original.mid / kept.mid), db(original.side / kept.side)];
      console.log(
        `${channels} sentence ${i + 1} (${from.toFixed(2)}–${to.toFixed(2)} s): original ${below.toFixed(1)} dB under the dub with duck, ${db(kept.all / dub.all).toFixed(1)} dB with keep; against keep: centre ${centre.toFixed(1)} dB${channels === 'stereo' ? `, sides ${sides.toFixed(1)} dB` : ''}`,
      );
      expect(below).toBeLessThanOrEqual(-20);
      // keep leaves the original far louder there: the ducking is what makes the difference.
      expect(db(kept.all / original.all)).toBeGreaterThan(15);
      if (channels === 'stereo') {
        // A stereo original: its centre (the voice) is taken out under the dub, down to the mix's
        // rounding (a 16-bit step); its sides stay, 20 dB lower.
        expect(centre).toBeLessThan(-40);
        expect(sides).toBeCloseTo(-20, 0);
      } else {
        // A mono original has no sides: it is lowered 20 dB, not taken out.
        expect(centre).toBeCloseTo(-20, 0);
      }
    }
    const gaps = placed.slice(1).map((line, i) => ({ from: placed[i]!.end + 0.3, to: line.start - 0.15 }));
    gaps.unshift({ from: 0, to: placed[0]!.start - 0.15 });
    for (const gap of gaps.filter((g) => g.to - g.from >= 0.3)) {
      const difference = db(energy(duck, gap.from, gap.to).all / energy(keep, gap.from, gap.to).all);
      console.log(`${channels} between sentences (${gap.from.toFixed(2)}–${gap.to.toFixed(2)} s): duck ${difference.toFixed(2)} dB from keep`);
      expect(Math.abs(difference)).toBeLessThanOrEqual(3);
      expect(energy(keep, gap.from, gap.to).all).toBeGreaterThan(0);
    }
    expect(gaps.filter((g) => g.to - g.from >= 0.3).length).toBeGreaterThanOrEqual(3);
  });

  it('drop: the dub alone, silence between sentences; keep: the whole original under the dub', () => {
    const { keep, drop } = pcm as Record<'duck' | 'keep' | 'drop', Int16Array>;
    for (const [i, line] of placed.slice(1).entries()) {
      const [from, to] = [placed[i]!.end + 0.1, line.start - 0.05];
      let peak = 0;
      for (let s = Math.floor(from * RATE) * 2; s < Math.floor(to * RATE) * 2; s++) peak = Math.max(peak, Math.abs(drop[s]!));
      expect(peak).toBe(0);
      // keep has the original there, at 0.15 of its level.
      expect(energy(keep, from, to).all).toBeGreaterThan(1000);
    }
  });

  it('refuses an unknown background with a 400 naming it, writing nothing', async () => {
    const before = await workspaceRowCounts(suite.api, tenant.workspace.id);
    for (const background of ['quiet', 'DUCK', 1, null]) {
      const res = await createProject(suite.api, tenant, projectBody({ background }));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_parameter', param: 'background' });
    }
    expect(await workspaceRowCounts(suite.api, tenant.workspace.id)).toEqual(before);
  });

  it('shows the mode on GET', async () => {
    expect((await getProjectView(suite.api, tenant, ids.keep)).background).toBe('keep');
  });
});
