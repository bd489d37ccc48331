import { createDubbingClient } from '../../../src/client';
import type { DubContext } from '../../../src/dub/dub-context';
import { waitForProject } from '../../../src/dub/wait-for-project';

// `--wait` off a terminal, on the real client with a scripted fetch: a plain line per change,
// and polls that back off while nothing changes (up to the API's poll_after_seconds) and speed
// up again when something does. The waits are recorded, never slept.

const language = (locale: string, status: string, percent: number) => ({ locale, status, progress: { percent, phase: status, poll_after_seconds: 10 }, deliverables: [], failure: null });
const project = (status: string, percent: number, languages: ReturnType<typeof language>[], pollAfter = 5) => ({
  id: 'p1',
  name: 'n',
  status,
  target_locales: ['es_es', 'ca_es'],
  languages,
  progress: { phase: status === 'processing' ? 'dubbing' : status, percent, poll_after_seconds: pollAfter, message: '', waiting_on: 'service', can_advance_without_user: true },
});

it('prints one line per change and backs off while nothing changes', async () => {
  const answers = [
    project('validating', 5, []),
    project('validating', 5, []),
    project('validating', 5, []),
    project('validating', 5, []),
    project('validating', 5, []),
    project('processing', 40, [language('es_es', 'dubbing', 50), language('ca_es', 'queued', 0)], 10),
    project('completed', 100, [language('es_es', 'completed', 100), language('ca_es', 'completed', 100)], 0),
  ];
  const lines: string[] = [];
  const ctx: DubContext = {
    out: { tty: false, stream: process.stdout, line: (t) => lines.push(t), error: (t) => lines.push(`ERR ${t}`) },
    cwd: '/',
    credentials: () => ({ apiKey: 'k', baseUrl: 'http://api.test', from: { apiKey: '', baseUrl: '' } }),
    client: () =>
      createDubbingClient({
        baseUrl: 'http://api.test',
        apiKey: 'k',
        fetch: async () => new Response(JSON.stringify({ data: answers.shift() }), { status: 200, headers: { 'content-type': 'application/json' } }),
      }),
  };
  const waits: number[] = [];
  const final = await waitForProject(ctx, 'p1', async (ms) => {
    waits.push(ms);
  });
  expect(final.status).toBe('completed');
  // 1 s, then doubling while unchanged up to poll_after_seconds (5 s), back to 1 s after a change.
  expect(waits).toEqual([1000, 2000, 4000, 5000, 5000, 1000]);
  expect(lines).toEqual([
    'project: validating 5%',
    'es_es: waiting 0%',
    'ca_es: waiting 0%',
    'project: dubbing 40%',
    'es_es: dubbing 50%',
    'ca_es: queued 0%',
    'project: completed 100%',
    'es_es: completed 100%',
    'ca_es: completed 100%',
  ]);
});
