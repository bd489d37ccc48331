import path from 'node:path';
import { createDubbingClient } from '../../../src/client';
import type { DubContext } from '../../../src/dub/dub-context';
import { runDub } from '../../../src/dub/main';
import { buildDubProgram } from '../../../src/dub/program';
import { makeTempDir, makeTone, removeTempDir } from '../../helpers/media-fixtures';

// `dub create --range` and `dub quote --range` (docs/cli.md, docs/previews.md): a preview is
// asked for with its range, its ceiling and quote are the range's seconds, and a range past the
// end of a file measured here is refused before anything is sent (exit code 2).

const VIDEO_ID = 'dQw4w9WgXcQ';
const PROJECT = '0b0e5a4e-6f0c-4f57-9a1e-2f1d3c4b5a69';
const usage = { credits_per_second: 10, credits: { total: 1000, reserved: 0, available: 1000 }, billable_seconds: { total: 100, reserved: 0, available: 100 }, as_of: '2026-12-07T09:00:00.000Z' };

let dir: string;
beforeAll(async () => {
  dir = makeTempDir('dub-range');
  await makeTone(path.join(dir, 'tone.wav'), 6);
});
afterAll(() => removeTempDir(dir));

/** Runs one `dub` command line on a client whose fetch answers by route and records what was sent. */
async function run(argv: string[]) {
  const lines: string[] = [];
  const requests: { method: string; url: string; body: unknown }[] = [];
  const answer = (url: string): unknown => {
    if (url.includes('/v1/usage')) return { data: usage };
    if (url.includes('/youtube/videos'))
      return {
        data: {
          connection_required: false,
          channel: { channel_id: 'UC1', title: 'Kitchen' },
          items: [{ youtube_video_id: VIDEO_ID, title: 'A long stew', url: `https://youtu.be/${VIDEO_ID}`, duration_seconds: 3600 }],
        },
      };
    return { data: { id: PROJECT, name: 'A long stew', status: 'validating' } };
  };
  const ctx: DubContext = {
    out: { tty: false, stream: process.stdout, line: (t) => lines.push(t), error: (t) => lines.push(`ERR ${t}`) },
    cwd: dir,
    credentials: () => ({ apiKey: 'k', baseUrl: 'http://api.test', from: { apiKey: '', baseUrl: '' } }),
    client: () =>
      createDubbingClient({
        baseUrl: 'http://api.test',
        apiKey: 'k',
        fetch: async (request) => {
          const text = await request.text();
          requests.push({ method: request.method, url: request.url, body: text ? JSON.parse(text) : undefined });
          return new Response(JSON.stringify(answer(request.url)), { status: request.method === 'POST' ? 201 : 200, headers: { 'content-type': 'application/json' } });
        },
      }),
  };
  await buildDubProgram(ctx).parseAsync(argv, { from: 'user' });
  return { lines, requests };
}

it('creates a preview of a YouTube video: the range in seconds, the ceiling its length rounded up', async () => {
  const { requests, lines } = await run(['create', `https://youtu.be/${VIDEO_ID}`, '--to', 'es_es', '--range', '1:00-1:30.5']);
  const create = requests.find((r) => r.method === 'POST')!;
  expect(create.body).toMatchObject({ max_billable_seconds: 31, range: { start_seconds: 60, end_seconds: 90.5 }, source: { type: 'youtube' } });
  expect(lines).toContain(`Created project ${PROJECT} (A long stew), validating.`);
});

it('quotes a preview for its range only', async () => {
  const { lines, requests } = await run(['quote', 'tone.wav', '--to', 'es_es,ca_es', '--range', '2-4.5']);
  expect(requests.map((r) => r.method)).toEqual(['GET']);
  expect(lines).toContain('Preview    2–4.5 s');
  expect(lines).toContain('Billable   3 s × 2 = 6 s');
  expect(lines).toContain('Credits    60 (10 per second)');
});

it('refuses a range past the end of the file, or written wrong, before sending anything (exit code 2)', async () => {
  const refused = async (argv: string[]) => {
    const errors: string[] = [];
    const code = await runDub(argv, {
      out: { tty: false, stream: process.stdout, line: () => undefined, error: (t) => errors.push(t) },
      env: { DUB_API_KEY: 'k', DUB_BASE_URL: 'http://127.0.0.1:9' },
      cwd: dir,
    });
    return { code, errors: errors.join('\n') };
  };
  const past = await refused(['create', 'tone.wav', '--to', 'es_es', '--range', '4-8']);
  expect(past.code).toBe(2);
  expect(past.errors).toContain('--range ends at 8 s, past the end of the video (6.0 s).');
  const backwards = await refused(['create', 'tone.wav', '--to', 'es_es', '--range', '5-2']);
  expect(backwards.code).toBe(2);
  expect(backwards.errors).toMatch(/end \(2\) must be after start \(5\)/);
  expect((await refused(['quote', 'tone.wav', '--to', 'es_es', '--range', 'soon'])).code).toBe(2);
});
