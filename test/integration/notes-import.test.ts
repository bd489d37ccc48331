import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEV_MEETINGS } from '../../db/seeds/dev-meetings';
import { seedDev } from '../../db/seeds/dev.seed';
import { runConsole } from '../../src/cli/console';
import { bearer, createTenant } from '../helpers/fixtures';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

let api: TestApi;
let dir: string;
beforeAll(async () => {
  api = await startTestApi();
  dir = mkdtempSync(path.join(tmpdir(), 'meetings-import-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await api.close();
});

const T0 = 1_790_000_000;

function writeExport(records: unknown): string {
  const file = path.join(dir, `${randomUUID()}.json`);
  writeFileSync(file, JSON.stringify(records));
  return file;
}

async function consoleRun(...argv: string[]): Promise<{ code: number; output: string }> {
  const lines: string[] = [];
  const code = await runConsole(argv, (line) => lines.push(line));
  return { code, output: lines.join('\n') };
}

const record = (overrides: Record<string, unknown> = {}): Record<string, any> & { id: string } => ({
  id: randomUUID(),
  name: 'Planning',
  started_at: T0,
  ended_at: T0 + 1800,
  duration_seconds: 1790,
  updated_at: T0 + 2000,
  ...overrides,
});

const ownerRows = (userId: string) => api.db.selectFrom('meetings').selectAll().where('owner_user_id', '=', userId).orderBy('started_at').execute();

describe('console meetings:import', () => {
  it('imports a good file whole, and the API serves it', async () => {
    const tenant = await createTenant(api.db, { workspaceKind: 'personal' });
    const friend = await createTenant(api.db);
    const full = record({
      name: 'Roadmap review',
      tags: [{ id: 't1', name: 'Roadmap' }],
      transcript_text: 'A: ship it.',
      transcript_segments: [{ speaker: 'A', start_seconds: 0, end_seconds: 1.5, text: 'ship it.' }],
      notes: [{ id: 'n1', text: 'ship', created_at: T0 + 60 }],
      summary: '**Ship it.**',
      summary_generated_at: T0 + 1900,
      shared_with: [friend.user.id],
    });
    const localOnly = record({ started_at: T0 + 10, ended_at: T0 + 20, duration_seconds: 10, sync_state: 'local_only' });
    const hidden = record({ started_at: T0 + 30, ended_at: T0 + 40, duration_seconds: 10, hidden: true, deleted_at: T0 + 50 });
    const file = writeExport([full, localOnly, hidden]);

    const run = await consoleRun('meetings:import', '--file', file, '--owner-email', tenant.user.email);
    expect(run.code).toBe(0);
    expect(run.output).toContain('imported 3 meetings (1 share)');

    const rows = await ownerRows(tenant.user.id);
    expect(rows.map((r) => r.id)).toEqual([full.id, localOnly.id, hidden.id]);
    expect(rows[0]).toMatchObject({
      name: 'Roadmap review',
      started_at: new Date(T0 * 1000),
      ended_at: new Date((T0 + 1800) * 1000),
      duration_seconds: 1790,
      tags: [{ id: 't1', name: 'Roadmap' }],
      sync_state: 'synced',
      hidden: false,
      deleted_at: null,
      transcript_text: 'A: ship it.',
      summary: '**Ship it.**',
      summary_generated_at: new Date((T0 + 1900) * 1000),
      updated_at: new Date((T0 + 2000) * 1000),
    });
    expect(rows[1]).toMatchObject({ sync_state: 'local_only', transcript_text: '', transcript_segments: [], notes: [], summary: null });
    expect(rows[2]).toMatchObject({ hidden: true, deleted_at: new Date((T0 + 50) * 1000) });
    const shares = await api.db.selectFrom('meeting_shares').select(['meeting_id', 'user_id']).where('meeting_id', '=', full.id).execute();
    expect(shares).toEqual([{ meeting_id: full.id, user_id: friend.user.id }]);

    const listed = await request(api.baseUrl, 'GET', '/v1/notes/meetings', { headers: bearer(tenant.key) });
    expect(listed.body.data.map((m: any) => m.id)).toEqual([full.id]);
    const got = await request(api.baseUrl, 'GET', `/v1/notes/meetings/${full.id}`, { headers: bearer(tenant.key) });
    expect(got.body.data).toMatchObject({ transcript_segments: full.transcript_segments, notes: full.notes, summary_generated_at: T0 + 1900 });

    // Re-importing the same export updates by id instead of duplicating.
    const again = await consoleRun('meetings:import', '--file', writeExport([{ ...full, name: 'Roadmap review v2', shared_with: [] }]), '--user', tenant.user.id);
    expect(again.code).toBe(0);
    const after = await ownerRows(tenant.user.id);
    expect(after).toHaveLength(3);
    expect(after.find((r) => r.id === full.id)!.name).toBe('Roadmap review v2');
    expect(await api.db.selectFrom('meeting_shares').selectAll().where('meeting_id', '=', full.id).execute()).toEqual([]);
  });

  it.each([
    ['a wrong type', { started_at: '2026-11-21' }, 'started_at', 'must be integer'],
    ['a missing field', { name: undefined }, 'name', 'is required'],
    ['an unknown field', { audio_url: 'https://x' }, 'audio_url', 'is not a known field'],
    ['a bad nested element', { tags: [{ id: 't', name: '' }] }, 'tags[0].name', 'must NOT have fewer than 1 characters'],
    ['a malformed id', { id: 'urn:uuid:not' }, 'id', 'must match pattern'],
    ['an end before its start', { ended_at: T0 - 1 }, 'ended_at', 'is before started_at'],
    ['an unknown sharee', { shared_with: [randomUUID()] }, 'shared_with[0]', 'is not a known user'],
    // PostgreSQL text and jsonb refuse U+0000; these used to abort the import on the database error.
    ['a NUL in the name', { name: 'Plan\u0000ning' }, 'name', 'must not contain the NUL character (U+0000)'],
    ['a NUL in the transcript', { transcript_text: 'A: \u0000' }, 'transcript_text', 'must not contain the NUL character (U+0000)'],
    ['a NUL in the summary', { summary: '\u0000' }, 'summary', 'must not contain the NUL character (U+0000)'],
    ['a NUL in a tag', { tags: [{ id: 't1', name: 'Road\u0000map' }] }, 'tags[0].name', 'must not contain the NUL character (U+0000)'],
    ['a NUL in a note', { notes: [{ id: 'n1', text: '\u0000', created_at: T0 }] }, 'notes[0].text', 'must not contain the NUL character (U+0000)'],
    // jsonb refuses a lone surrogate, which JSON can spell ("\ud800"); found by test/fuzz/meeting-import.fuzz.test.ts.
    ['a lone surrogate in a note', { notes: [{ id: 'n1', text: '\ud800', created_at: T0 }] }, 'notes[0].text', 'must be valid Unicode (it holds a lone surrogate)'],
    ['a lone low surrogate in a tag', { tags: [{ id: 't1', name: 'x\udc00' }] }, 'tags[0].name', 'must be valid Unicode (it holds a lone surrogate)'],
    [
      'a NUL in a segment speaker',
      { transcript_segments: [{ speaker: 'A\u0000', start_seconds: 0, end_seconds: 1, text: 'hi' }] },
      'transcript_segments[0].speaker',
      'must not contain the NUL character (U+0000)',
    ],
  ])('writes nothing from a file with %s, naming the record and field', async (_what, overrides, field, reason) => {
    const tenant = await createTenant(api.db, { workspaceKind: 'personal' });
    const bad = JSON.parse(JSON.stringify(record(overrides))); // drops undefined fields
    const file = writeExport([record(), record({ started_at: T0 + 5 }), bad, record({ started_at: T0 + 9 })]);
    const run = await consoleRun('meetings:import', '--file', file, '--user', tenant.user.id);
    expect(run.code).toBe(1);
    expect(run.output).toContain(`record 2, field ${field}: ${reason}`);
    expect(await ownerRows(tenant.user.id)).toEqual([]);
  });

  it("refuses to take over another user's meeting id and rolls back the records before it", async () => {
    const owner = await createTenant(api.db, { workspaceKind: 'personal' });
    const intruder = await createTenant(api.db, { workspaceKind: 'personal' });
    const taken = record();
    expect((await consoleRun('meetings:import', '--file', writeExport([taken]), '--user', owner.user.id)).code).toBe(0);

    const run = await consoleRun('meetings:import', '--file', writeExport([record(), { ...taken, name: 'hijacked' }]), '--user', intruder.user.id);
    expect(run.code).toBe(1);
    expect(run.output).toContain('record 1, field id: belongs to a meeting of another user');
    expect(await ownerRows(intruder.user.id)).toEqual([]);
    expect((await ownerRows(owner.user.id)).map((r) => r.name)).toEqual(['Planning']);
  });

  it('reports a file that is not a JSON array of meetings, and a missing owner', async () => {
    const tenant = await createTenant(api.db, { workspaceKind: 'personal' });
    const notJson = path.join(dir, 'broken.json');
    writeFileSync(notJson, '[{"id": ');
    const broken = await consoleRun('meetings:import', '--file', notJson, '--user', tenant.user.id);
    expect(broken.code).toBe(1);
    expect(broken.output).toContain('not valid JSON');
    const notArray = await consoleRun('meetings:import', '--file', writeExport({ id: 1 }), '--user', tenant.user.id);
    expect(notArray.output).toContain('JSON array');
    const noOwner = await consoleRun('meetings:import', '--file', writeExport([record()]));
    expect(noOwner.code).toBe(2);
    // An owner that does not exist is refused while running: exit 1, one line.
    const unknownOwner = await consoleRun('meetings:import', '--file', writeExport([record()]), '--user', randomUUID());
    expect(unknownOwner.code).toBe(1);
    expect(unknownOwner.output).toMatch(/^error: no user [0-9a-f-]{36}$/);
    expect(await ownerRows(tenant.user.id)).toEqual([]);
  });
});

describe('dev seed', () => {
  it("loads the sample meetings for the dev key's user, and a re-run changes nothing", async () => {
    const first = await seedDev(api.db, { creditsPerSecond: 10 });
    const second = await seedDev(api.db, { previousKey: first.apiKey, creditsPerSecond: 10 });
    expect(second.userId).toBe(first.userId);
    const rows = await ownerRows(first.userId);
    expect(rows.map((r) => r.id).sort()).toEqual(DEV_MEETINGS.map((m) => m.id).sort());

    const listed = await request(api.baseUrl, 'GET', '/v1/notes/meetings', { headers: bearer(second.apiKey) });
    expect(listed.status).toBe(200);
    const listable = DEV_MEETINGS.filter((m) => !m.hidden && (m.sync_state ?? 'synced') === 'synced');
    expect(listed.body.data).toHaveLength(listable.length);
    expect(listed.body.data.length).toBeGreaterThanOrEqual(3);
    expect(listed.body.data[0].started_at).toBeGreaterThanOrEqual(listed.body.data.at(-1).started_at);
  });
});
