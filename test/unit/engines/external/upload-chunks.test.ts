import { findQuietSpans } from '../../../../src/engines/asr/silence-finder';
import { planUploadChunks } from '../../../../src/engines/external/upload-chunks';
import { pcm } from '../../../helpers/synthetic-pcm';

const RATE = 16_000;
const quietOf = (samples: Int16Array) => async (from: number, to: number) => {
  const first = Math.max(0, Math.floor(from * RATE));
  return findQuietSpans(samples.subarray(first, Math.ceil(to * RATE)), RATE).map((q) => ({ startSeconds: q.startSeconds + first / RATE, endSeconds: q.endSeconds + first / RATE }));
};

describe('planUploadChunks', () => {
  it('sends what fits as one chunk', async () => {
    const asked: number[][] = [];
    expect(await planUploadChunks(100, { maxChunkSeconds: 100 }, async (a, b) => (asked.push([a, b]), []))).toEqual([{ startSeconds: 0, endSeconds: 100 }]);
    expect(asked).toEqual([]);
  });

  it('cuts in the pause nearest each limit, every chunk within it, reading only the stretch before the limit', async () => {
    // Speech with a pause every 10 s (at 9.5–10): 95 s in all, 30 s a request at most.
    const parts: { kind: 'tone' | 'silence'; seconds: number }[] = [];
    for (let i = 0; i < 9; i++) parts.push({ kind: 'tone', seconds: 9.5 }, { kind: 'silence', seconds: 0.5 });
    parts.push({ kind: 'tone', seconds: 5 });
    const asked: number[][] = [];
    const quiet = quietOf(pcm(parts));
    const chunks = await planUploadChunks(95, { maxChunkSeconds: 30, searchSeconds: 6 }, (a, b) => (asked.push([a, b]), quiet(a, b)));
    expect(chunks.map((c) => [c.startSeconds, c.endSeconds].map((t) => Math.round(t * 100) / 100))).toEqual([
      [0, 29.75],
      [29.75, 59.75],
      [59.75, 89.75],
      [89.75, 95],
    ]);
    for (const c of chunks) expect(c.endSeconds - c.startSeconds).toBeLessThanOrEqual(30);
    // Each question covers at most the search window before a limit.
    for (const [a, b] of asked) expect(b! - a!).toBeCloseTo(6, 5);
  });

  it('cuts at the limit where no pause is near it (continuous sound)', async () => {
    const chunks = await planUploadChunks(70, { maxChunkSeconds: 30 }, quietOf(pcm([{ kind: 'noise', seconds: 70 }])));
    expect(chunks).toEqual([
      { startSeconds: 0, endSeconds: 30 },
      { startSeconds: 30, endSeconds: 60 },
      { startSeconds: 60, endSeconds: 70 },
    ]);
  });

  it('refuses a limit that fits no audio', async () => {
    await expect(planUploadChunks(10, { maxChunkSeconds: 0 }, async () => [])).rejects.toThrow(RangeError);
  });
});
