import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { formatBytes } from '../../src/dub/output';
import { makeBusyVideo } from '../helpers/busy-video';
import { DUB_BIN } from '../helpers/dub-cli';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir } from '../helpers/media-fixtures';
import { startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';
import { waitFor } from '../helpers/wait-for';

// `dub create --wait` in a real terminal (tmux, 160×40), on the real stack: the upload bar is
// seen moving between screen captures, the per-language lines end at 100%, and the files are on
// disk. A tmux server of its own (-L) keeps it apart from any other.

const SOCKET = `dub-cli-test-${process.pid}`;
const SESSION = 'dub';
const TARGETS = ['es_es', 'ca_es'];
const PART_SIZE = 64 * 1024;

let api: TestApi;
let worker: TestWorker;
let tenant: TestTenant;
let dir: string;

const tmux = (...args: string[]) => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', SESSION);
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

beforeAll(async () => {
  dir = makeTempDir('dub-cli-terminal');
  api = await startTestApi({ UPLOAD_PART_SIZE_BYTES: String(PART_SIZE) });
  worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue });
  tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: 10 });
}, 120_000);

afterAll(async () => {
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
  await worker?.stop();
  await api?.close();
  if (dir) removeTempDir(dir);
});

it('shows the upload bar advancing, one live line per language, and ends with the files on disk', async () => {
  // About 40 MiB in 64 KiB parts: hundreds of PUTs, so the bar is on screen for a while.
  const video = await makeBusyVideo(dir, 'Rice.mp4', 'Today we cook rice with fresh vegetables. The water is hot.', 40);
  expect(statSync(video).size).toBeGreaterThan(100 * PART_SIZE);
  const out = path.join(dir, 'out');
  mkdirSync(out);
  const command = [process.execPath, DUB_BIN, 'create', video, '--to', TARGETS.join(','), '--wait', '--out', out].map(shellQuote).join(' ');
  tmux('new-session', '-d', '-s', SESSION, '-x', '160', '-y', '40', '-c', dir, '-e', `DUB_API_KEY=${tenant.key}`, '-e', `DUB_BASE_URL=${api.baseUrl}`, `${command}; echo "DUB-EXIT:$?"; sleep 600`);

  // Every percentage the bar shows while the upload runs, in the order seen.
  const seen: number[] = [];
  await waitFor(
    'the upload to end',
    async () => {
      const text = screen();
      const percent = /Uploading \[[^\]]*\] (\d+)% \| ([\d.]+ \w+) \/ ([\d.]+ \w+)/.exec(text);
      if (percent && Number(percent[1]) !== seen[seen.length - 1]) seen.push(Number(percent[1]));
      return text.includes('Upload completed') || text.includes('DUB-EXIT:');
      // Hundreds of PUTs: about a minute alone, several while the whole suite shares two cores.
    },
    300_000,
    20,
  );
  expect(seen.length).toBeGreaterThanOrEqual(2);
  expect(seen.some((p) => p < 100)).toBe(true);
  expect([...seen].sort((a, b) => a - b)).toEqual(seen); // it only ever moves forward

  const final = await waitFor(
    'dub to exit',
    async () => {
      const text = screen();
      return text.includes('DUB-EXIT:') ? text : undefined;
    },
    420_000,
    1000,
  );
  expect(final).toContain('DUB-EXIT:0');
  const size = formatBytes(statSync(video).size);
  expect(final).toContain(`] 100% | ${size} / ${size} |`);
  expect(final).toMatch(/\| ETA 0s \| parts (\d+)\/\1\n/);
  for (const locale of TARGETS) expect(final).toMatch(new RegExp(`${locale}\\s+\\[[^\\]]*\\] 100% completed`));
  expect(final).toMatch(/Project [0-9a-f-]{36} completed\./);
  for (const locale of TARGETS) {
    for (const format of ['mp3', 'wav', 'srt', 'vtt', 'png', 'mp4']) {
      const file = path.join(out, `Rice.${locale}.${format}`);
      expect(existsSync(file)).toBe(true);
      expect(statSync(file).size).toBeGreaterThan(0);
    }
  }
}, 600_000);
