import fc from 'fast-check';
import { sql } from 'kysely';
import { meetingImportRecordSchema } from '../../src/notes/meeting-import-record';
import { importMeetings, MeetingImportError } from '../../src/cli/import-meetings';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { startTestApi, type TestApi } from '../helpers/test-api';
import { schemaValue, validValue, type JsonSchema } from './schema-arbitraries';

// The console's meeting import stores text too (docs/fuzzing.md). Generated files, made from the
// import's own record schema (valid, near-valid, hostile), either land or are refused with a
// MeetingImportError naming the record and field; a refused file writes nothing.

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : (Date.now() ^ Math.floor(Math.random() * 2 ** 31)) | 0;

let api: TestApi;
let owner: TestTenant;
let friend: TestTenant;
beforeAll(async () => {
  console.log(`meeting import fuzz: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`);
  api = await startTestApi();
  owner = await createTenant(api.db, { workspaceKind: 'personal', keyKind: 'personal' });
  friend = await createTenant(api.db, { workspaceKind: 'personal', keyKind: 'personal' });
});
afterAll(() => api.close());

/** Row count and md5 of the owner's meetings and their shares. */
async function meetingDigest(): Promise<string> {
  const { rows } = await sql<{ digest: string }>`
    select count(*) || ':' || coalesce(md5(string_agg(r::text, '|' order by r::text)), '') as digest
    from (select m::text as r from meetings m where m.owner_user_id = ${owner.user.id}
          union all select s::text from meeting_shares s join meetings m on m.id = s.meeting_id where m.owner_user_id = ${owner.user.id}) t(r)`.execute(api.db);
  return rows[0]!.digest;
}

it(
  'an import file either lands or is refused naming record and field, writing nothing',
  async () => {
    // Hints make valid files common: a known sharee, and an end after the start.
    const hints = { shared_with: [friend.user.id], started_at: [1_700_000_000], ended_at: [1_700_000_600, 1_700_003_600] };
    const schema = meetingImportRecordSchema as JsonSchema;
    const file = fc.oneof(fc.array(validValue(schema, hints), { minLength: 1, maxLength: 3 }), fc.array(schemaValue(schema, hints), { minLength: 1, maxLength: 3 }));
    const outcomes = { imported: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(file, async (records) => {
        const before = await meetingDigest();
        try {
          await importMeetings(api.db, owner.user.id, records);
          outcomes.imported++;
        } catch (err) {
          if (!(err instanceof MeetingImportError)) throw new Error(`not a MeetingImportError: ${String(err)}`);
          // A field may be named "" (an unknown empty key), but it is named.
          if (err.index === null || err.field === null) throw new Error(`refusal names no record and field: ${err.message}`);
          outcomes.refused++;
          const after = await meetingDigest();
          if (after !== before) throw new Error(`refused (${err.message}) but changed the owner's meetings`);
        }
      }),
      { numRuns: RUNS, seed: SEED, ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}) },
    );
    console.log(`meeting import fuzz (seed ${SEED}): ${outcomes.imported} imported, ${outcomes.refused} refused`);
    expect(outcomes.imported + outcomes.refused).toBeGreaterThanOrEqual(RUNS);
  },
  Math.max(60_000, RUNS * 600),
);
