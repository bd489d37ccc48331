import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { Client as PgClient } from 'pg';
import { createApp } from '../src/api/app';
import { issueApiKey } from '../src/auth/issue-api-key';
import { loadConfig } from '../src/config';
import { createDb, createPool, type Db } from '../src/db/create-db';
import { LISTED, MEETING_METADATA_COLUMNS, ownedMeetingsPageQuery } from '../src/db/meetings';
import { migrateToLatest } from '../src/db/migrator';
import { insertUser, insertWorkspace } from '../src/db/workspaces';
import { createLogger } from '../src/logger';
import { createStorage } from '../src/storage/create-storage';
import { createTemporalClient } from '../src/temporal/connection';
import { NO_CAPABILITIES } from '../src/fleet/fleet-capabilities';

// npm run bench:notes [-- --iterations 40] [--keep] [--reuse] [--jit]
//
// Deep-offset listing: GET /v1/notes/meetings?offset=1000000&limit=100 through the real Koa app
// over HTTP, against the naive `ORDER BY started_at DESC, id DESC OFFSET 1000000 LIMIT 100`
// (same columns, same filters, same table and indexes) sent straight to Postgres. Both are
// measured in one run, interleaved, on a database of its own that is dropped afterwards.

const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = 'dubbing_bench_notes';
const OFFSET = 1_000_000;
const LIMIT = 100;

// 133 slots in 10,000 rounds: 110 listed meetings of the bench user, 3 of theirs the API never
// lists (local-only, deleted, hidden) and 20 of other users, interleaved in time as syncs happen.
const ROUNDS = 10_000;
const LISTED_PER_ROUND = 110;
const OTHER_USERS = 100;
const SHARED_WITH_BENCH_USER = 5_000;

function parseArgs(argv: string[]) {
  const flag = (name: string) => argv.includes(`--${name}`);
  const at = argv.indexOf('--iterations');
  const iterations = at >= 0 ? Number(argv[at + 1]) : 40;
  if (!Number.isSafeInteger(iterations) || iterations < 5) throw new Error('--iterations must be an integer >= 5');
  return { iterations, keep: flag('keep') || flag('reuse'), reuse: flag('reuse'), jit: flag('jit') };
}

function dbUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(fn: (client: PgClient) => Promise<T>): Promise<T> {
  const client = new PgClient({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function databaseExists(): Promise<boolean> {
  return admin(async (c) => (await c.query('select 1 from pg_database where datname = $1', [DB_NAME])).rowCount === 1);
}

async function dropDatabase(): Promise<void> {
  await admin((c) => c.query(`drop database if exists ${DB_NAME} with (force)`));
}

const elapsed = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** Returns the bench user's id; everything else is found again through it on --reuse. */
async function seed(db: Db): Promise<string> {
  const started = performance.now();
  // One transaction, so a failed seed leaves no bench user for --reuse to mistake for a full one.
  const userId = await db.transaction().execute((trx) => insertRows(trx));
  console.log(`seeded ${ROUNDS * 133} meetings (${ROUNDS * LISTED_PER_ROUND} listed for the bench user) in ${elapsed(started)}`);

  // Index-only scans skip the heap only for pages the visibility map marks all-visible.
  const vacuumed = performance.now();
  await sql`vacuum (analyze) meetings`.execute(db);
  await sql`vacuum (analyze) meeting_shares`.execute(db);
  console.log(`vacuum analyze in ${elapsed(vacuumed)}`);
  return userId;
}

async function insertRows(db: Db): Promise<string> {
  const user = await insertUser(db, { email: 'bench@notes.local', name: 'Bench User' });
  await insertWorkspace(db, { name: 'Bench personal workspace', kind: 'personal', owner_user_id: user.id, credits_per_second: 10 });
  await sql`insert into users (email, name)
    select 'bench-other-' || g || '@notes.local', 'Other ' || g from generate_series(1, ${OTHER_USERS}::int) g`.execute(db);

  await sql`
    with others as (select array_agg(id order by email) as ids from users where email like 'bench-other-%'),
    slots as (
      select g, g % 133 as kind,
             timestamptz '2016-01-01 00:00:00+00' + ((g / 2) * interval '97 seconds') as started_at, -- pairs tie
             900 + (g::bigint * 7919) % 3600 as duration
      from generate_series(1, ${ROUNDS * 133}::int) g
    )
    insert into meetings (owner_user_id, name, started_at, ended_at, duration_seconds, tags, sync_state, hidden,
                          deleted_at, transcript_text, transcript_segments, notes, summary, summary_generated_at, updated_at)
    select case when kind >= 133 - 20 then others.ids[1 + g % ${OTHER_USERS}::int] else ${user.id}::uuid end,
           'Meeting #' || g || ' — weekly status',
           started_at,
           started_at + duration * interval '1 second',
           duration,
           jsonb_build_array(jsonb_build_object('id', 'tag_' || g % 7, 'name', 'Team ' || g % 7)),
           case when kind = ${LISTED_PER_ROUND}::int then 'local_only' else 'synced' end,
           kind = ${LISTED_PER_ROUND + 2}::int,
           case when kind = ${LISTED_PER_ROUND + 1}::int then started_at + interval '1 day' end,
           'Alex: status update ' || g || ' is on track. Sam: next item is the roadmap and the hiring plan for the quarter.',
           jsonb_build_array(
             jsonb_build_object('speaker', 'Alex', 'start_seconds', 0, 'end_seconds', 4.5, 'text', 'Status update ' || g || ' is on track.'),
             jsonb_build_object('speaker', 'Sam', 'start_seconds', 5, 'end_seconds', 11.25, 'text', 'Next item is the roadmap and the hiring plan.')),
           case when g % 4 = 0 then jsonb_build_array(jsonb_build_object('id', 'n1', 'text', 'Follow up', 'created_at', 1700000000 + g)) else '[]'::jsonb end,
           case when g % 3 = 0 then null else E'## Summary\n- Status ' || g || E' on track\n- Roadmap next' end,
           case when g % 3 = 0 then null else started_at + duration * interval '1 second' + interval '2 minutes' end,
           started_at + duration * interval '1 second' + interval '1 minute'
    from slots, others
    order by g
  `.execute(db);
  await sql`insert into meeting_shares (meeting_id, user_id)
    select id, ${user.id}::uuid from meetings where owner_user_id <> ${user.id}::uuid
    order by started_at desc limit ${SHARED_WITH_BENCH_USER}::int`.execute(db);
  return user.id;
}

/** The naive form: the same columns and filters, sorted and offset on the table itself. */
function naiveQuery(db: Db, ownerUserId: string) {
  return db
    .selectFrom('meetings')
    .select(MEETING_METADATA_COLUMNS)
    .where('owner_user_id', '=', ownerUserId)
    .where(LISTED)
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .offset(OFFSET)
    .limit(LIMIT);
}

async function explain(db: Kysely<any>, label: string, compiled: { sql: string; parameters: readonly unknown[] }): Promise<void> {
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain (analyze, buffers, costs off) ${compiled.sql}`, [...compiled.parameters]));
  console.log(`\n${label}:\n${rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const reuse = options.reuse && (await databaseExists());
  if (!reuse) {
    await dropDatabase();
    await admin((c) => c.query(`create database ${DB_NAME}`));
  }
  // JIT compiles the naive plan on every run (its cost is far above jit_above_cost), which
  // would flatter the comparison; off by default so both sides are measured on execution alone.
  await admin((c) => c.query(options.jit ? `alter database ${DB_NAME} reset jit` : `alter database ${DB_NAME} set jit = off`));

  const config = loadConfig({ ...process.env, DATABASE_URL: dbUrl(DB_NAME), LOG_LEVEL: 'error' });
  const pool = createPool({ url: dbUrl(DB_NAME), poolMax: 5, applicationName: 'dubbing-bench' });
  const db = createDb(pool);
  const temporal = createTemporalClient(config); // lazy: the notes routes never touch Temporal
  let server: Server | undefined;
  try {
    if (!reuse) await migrateToLatest(db);
    const existing = await db.selectFrom('users').select('id').where('email', '=', 'bench@notes.local').executeTakeFirst();
    const ownerUserId = existing?.id ?? (await seed(db));
    const workspace = await db.selectFrom('workspaces').select('id').where('owner_user_id', '=', ownerUserId).executeTakeFirstOrThrow();
    const { key } = await issueApiKey(db, { workspaceId: workspace.id, kind: 'personal', userId: ownerUserId, name: 'bench', permissions: ['notes:read'] });

    // The full app, built as server.ts builds it; the notes routes use only db (and never engines).
    const app = createApp({
      config,
      db,
      pool,
      temporal,
      capabilities: { current: () => NO_CAPABILITIES },
      logger: createLogger('error'),
      ...createStorage(config),
    });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/notes/meetings?offset=${OFFSET}&limit=${LIMIT}`;

    const viaApi = async () => {
      const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
      const body = (await res.json()) as { data: { id: string }[]; page: unknown };
      if (res.status !== 200) throw new Error(`API answered ${res.status}: ${JSON.stringify(body)}`);
      return body;
    };
    const naive = naiveQuery(db, ownerUserId);
    const viaNaive = () => naive.execute();

    // Same page, same order: otherwise the comparison would mean nothing.
    const [apiPage, naivePage] = [await viaApi(), await viaNaive()];
    if (apiPage.data.length !== LIMIT || JSON.stringify(apiPage.data.map((m) => m.id)) !== JSON.stringify(naivePage.map((m) => m.id))) {
      throw new Error('the API page differs from the naive query page');
    }
    console.log(`page check: both return the same ${LIMIT} ids; page = ${JSON.stringify(apiPage.page)}`);

    await explain(db, 'deferred join (the API query, limit + 1)', ownedMeetingsPageQuery(db, ownerUserId, { offset: OFFSET, limit: LIMIT }).compile());
    await explain(db, 'naive query', naive.compile());

    for (let i = 0; i < 5; i++) {
      await viaApi();
      await viaNaive();
    } // warm caches and pools
    const apiMs: number[] = [];
    const naiveMs: number[] = [];
    for (let i = 0; i < options.iterations; i++) {
      // Alternate which goes first so neither always runs on the other's warmed cache.
      const order =
        i % 2 === 0
          ? ([
              [viaApi, apiMs],
              [viaNaive, naiveMs],
            ] as const)
          : ([
              [viaNaive, naiveMs],
              [viaApi, apiMs],
            ] as const);
      for (const [run, samples] of order) {
        const t = performance.now();
        await run();
        samples.push(performance.now() - t);
      }
    }

    const [apiP50, apiP95, naiveP50, naiveP95] = [percentile(apiMs, 50), percentile(apiMs, 95), percentile(naiveMs, 50), percentile(naiveMs, 95)];
    const ratio = apiP50 / naiveP50;
    const jit = (await sql<{ jit: string }>`select current_setting('jit') as jit`.execute(db)).rows[0]!.jit;
    console.log(`\noffset=${OFFSET} limit=${LIMIT}, ${options.iterations} interleaved runs each, jit=${jit}`);
    console.log(`API over HTTP (GET /v1/notes/meetings): p50 ${apiP50.toFixed(1)} ms, p95 ${apiP95.toFixed(1)} ms`);
    console.log(`naive query (direct to Postgres)     : p50 ${naiveP50.toFixed(1)} ms, p95 ${naiveP95.toFixed(1)} ms`);
    console.log(`ratio API p50 / naive p50             : ${ratio.toFixed(3)}`);
    const pass = ratio <= 0.5 && apiP50 < 150;
    console.log(`target (ratio <= 0.5 and API p50 < 150 ms): ${pass ? 'PASS' : 'FAIL'}`);
    process.exitCode = pass ? 0 : 1;
  } finally {
    if (server) {
      server.closeAllConnections();
      await new Promise((r) => server!.close(() => r(undefined)));
    }
    await db.destroy();
    await temporal.connection.close();
    if (options.keep) console.log(`kept database ${DB_NAME} (--keep)`);
    else await dropDatabase();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
