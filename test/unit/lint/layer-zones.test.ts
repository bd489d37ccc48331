import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

// The layer zones (eslint/layers.js) are lint rules: each forbidden import below must fail lint
// in the folder it is written in, and the allowed ones must pass. Linted without type
// information, so a fixture file need not exist on disk.

const ROOT = path.resolve(__dirname, '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const layers = require(path.join(ROOT, 'eslint', 'layers.js')) as object[];

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { '@typescript-eslint': tseslint.plugin } }, ...(layers as any[])],
});

async function messages(file: string, code: string, ruleId: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === ruleId).map((m) => m.message);
}

const restricted = (file: string, code: string) => messages(file, code, '@typescript-eslint/no-restricted-imports');
/** Query-builder calls and sql templates outside src/db (the queriesLiveInDb block). */
const queries = (file: string, code: string) => messages(file, code, 'no-restricted-syntax');

const FORBIDDEN: Array<[file: string, code: string]> = [
  ['src/dub/fixture.ts', "import { createDb } from '../db/create-db';"],
  ['src/dub/fixture.ts', "import { Pool } from 'pg';"],
  ['src/dub/fixture.ts', "import { Kysely } from 'kysely';"],
  ['src/dub/fixture.ts', "import { Counter } from 'prom-client';"],
  ['src/dub/commands/fixture.ts', "import { youtubeVideoId } from '../../api/projects/youtube-url';"],
  ['src/dub/fixture.ts', "import { runProcess } from '../engines/run-process';"],
  ['src/dub/fixture.ts', "import { Client } from '@temporalio/client';"],
  ['src/dub/fixture.ts', "import { S3Client } from '@aws-sdk/client-s3';"],
  ['src/dub/fixture.ts', "import { loadConfig } from '../config';"],
  ['src/api/projects/fixture.ts', "import type { ServableLocale } from '../../engines/capabilities';"],
  ['src/api/voices/fixture.ts', "import type { OfferedVoice } from '../../engines/offered-voices';"],
  ['src/db/fixture.ts', "import type { EngineCapabilities } from '../engines/capabilities';"],
  ['src/sources/youtube/fixture.ts', "import { VIDEO_ID_PATTERN } from '../../db/youtube';"],
  ['src/api/projects/fixture.ts', "import { chargeReference } from '../../activities/language-settlement';"],
  ['src/api/fixture.ts', "import { runCommand } from '../cli/console';"],
  ['src/webhooks/fixture.ts', "import { presentProject } from '../api/projects/project-presenter';"],
  ['src/cli/fixture.ts', "import { validateBody } from '../api/middleware/validate';"],
  ['src/db/fixture.ts', "import { creditEntries } from '../metrics/metrics';"],
  ['src/db/fixture.ts', "import { storage } from '../storage/blob-store';"],
  ['src/shared/fixture.ts', "import type { Db } from '../db/create-db';"],
  ['src/captions/fixture.ts', "import { findDeliverable } from '../db/deliverables';"],
  ['src/client/fixture.ts', "import { TASK_QUEUE } from '../shared/task-queues';"],
  ['src/workflows/fixture.ts', "import { createBillingActivities } from '../activities/billing.activities';"],
  ['src/workflows/fixture.ts', "import { readFile } from 'node:fs';"],
  ['src/workflows/fixture.ts', "import { loadConfig } from '../config';"],
  ['src/activities/fixture.ts', "import { createApp } from '../api/app';"],
  ['db/migrations/2099_01_01_0001_fixture.ts', "import { LedgerKind } from '../../src/db/credits';"],
  ['db/seeds/fixture.ts', "import { meetingsRoutes } from '../../src/api/notes/notes.routes';"],
];

const ALLOWED: Array<[file: string, code: string]> = [
  ['src/dub/fixture.ts', "import { createDubbingClient } from '../client';"],
  ['src/dub/fixture.ts', "import { Command } from 'commander';"],
  ['src/dub/fixture.ts', "import { loadDubCliEnv } from './dub-env';"],
  ['src/dub/fixture.ts', "import { youtubeVideoId } from '../shared/youtube-video-id';"],
  ['src/api/projects/fixture.ts', "import { findProject } from '../../db/projects';"],
  ['src/api/projects/fixture.ts', "import { presentProject } from '../../project-view/project-presenter';"],
  ['src/workflows/fixture.ts', "import type { BillingActivities } from '../activities/billing.activities';"],
  ['src/workflows/fixture.ts', "import { proxyActivities } from '@temporalio/workflow';"],
  ['src/temporal/fixture.ts', "import type { projectWorkflow } from '../workflows/project.workflow';"],
  ['src/db/fixture.ts', "import type { EngineCapabilities } from '../shared/engine-capabilities';"],
  ['src/api/projects/fixture.ts', "import type { ServableLocale } from '../../shared/engine-capabilities';"],
  ['src/api/transcripts/fixture.ts', "import { formatTimestamp } from '../../shared/caption-timestamps';"],
  ['src/activities/fixture.ts', "import { chargeCredits } from '../db/credits';"],
  ['src/cli/fixture.ts', "import { compileBody } from '../shared/json-schema-validators';"],
];

describe('layer zones (eslint/layers.js)', () => {
  it.each(FORBIDDEN)('%s may not: %s', async (file, code) => {
    expect(await restricted(file, code)).toHaveLength(1);
  });

  it.each(ALLOWED)('%s may: %s', async (file, code) => {
    expect(await restricted(file, code)).toEqual([]);
  });

  it('a value import from a types-only layer fails, naming import type', async () => {
    const [message] = await restricted('src/temporal/fixture.ts', "import { projectWorkflow } from '../workflows/project.workflow';");
    expect(message).toMatch(/import type/);
  });
});

const QUERY_OUTSIDE_DB: Array<[file: string, code: string]> = [
  ['src/activities/fixture.ts', "export const lock = (trx: any, id: string) => trx.selectFrom('projects').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();"],
  ['src/activities/fixture.ts', "import { sql } from 'kysely';\nexport const staleBefore = sql<Date>`now() - interval '5 minutes'`;"],
  ['src/activities/fixture.ts', "import { sql } from 'kysely';\nexport const column = sql.ref('projects.status');"],
  ['src/activities/fixture.ts', "export const known = (db: any) => db.selectFrom('r').where((eb: any) => eb.exists(eb.selectFrom('l').select('l.id'))).execute();"],
  ['src/api/projects/fixture.ts', "export const touch = (db: any, id: string) => db.updateTable('projects').set({ name: 'x' }).where('id', '=', id).execute();"],
  ['src/api/fixture.ts', "import { sql } from 'kysely';\nexport const ping = (db: any) => sql`select 1`.execute(db);"],
  ['src/api/fixture.ts', "export const add = (db: any) => db.insertInto('projects').values({}).execute();"],
  ['src/webhooks/fixture.ts', "export const drop = (db: any) => db.deleteFrom('webhook_deliveries').execute();"],
  ['src/cli/commands/fixture.ts', "export const one = (db: any) => db.selectNoFrom((eb: any) => eb.val(1).as('one')).execute();"],
  ['src/metrics/fixture.ts', "export const merge = (db: any) => db.mergeInto('projects').execute();"],
  ['src/auth/fixture.ts', 'export const listen = (client: any) => client.query(`LISTEN api_key_changes`);'],
  ['src/fleet/fixture.ts', "export const count = (pool: any) => pool.query('select count(*) from worker_capabilities');"],
  ['src/api/fixture.ts', "export const named = (pool: any, id: string) => pool.query({ name: 'one', text: 'select 1 where $1::text is not null', values: [id] });"],
];

const QUERY_ALLOWED: Array<[file: string, code: string]> = [
  ['src/db/fixture.ts', "export const lock = (trx: any, id: string) => trx.selectFrom('projects').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();"],
  ['src/db/fixture.ts', "import { sql } from 'kysely';\nexport const ping = (db: any) => sql`select 1`.execute(db);"],
  ['src/db/queries/fixture.ts', "export const add = (db: any) => db.insertInto('projects').values({}).execute();"],
  ['src/activities/fixture.ts', "import { lockProject } from '../db/projects';\nexport const lock = (trx: any, id: string) => lockProject(trx, id);"],
  ['src/api/fixture.ts', 'export const names = (rows: { name: string }[]) => rows.map((r) => r.name).filter(Boolean);'],
  ['src/db/fixture.ts', 'export const listen = (client: any) => client.query(`LISTEN api_key_changes`);'],
  ['src/auth/fixture.ts', "import { listenForKeyChanges } from '../db/api-keys';\nexport const listen = (client: any) => listenForKeyChanges(client);"],
  ['src/api/fixture.ts', 'export const page = (ctx: any) => ctx.query;'],
];

describe('queries live in src/db (eslint/layers.js)', () => {
  it.each(QUERY_OUTSIDE_DB)('%s may not: %s', async (file, code) => {
    const found = await queries(file, code);
    expect(found.length).toBeGreaterThanOrEqual(1);
    expect(found[0]).toMatch(/Queries live in src\/db/);
  });

  it.each(QUERY_ALLOWED)('%s may: %s', async (file, code) => {
    expect(await queries(file, code)).toEqual([]);
  });

  // These files held queries until issue 27 moved them into src/db; no file is exempt any more.
  const MOVED = [
    'src/activities/reconciler.activities.ts',
    'src/api/projects/complete-upload.ts',
    'src/api/projects/languages/commit-addition.ts',
    'src/api/reviews/request-transcript-review.ts',
    'src/api/uploads/upload-parts.routes.ts',
  ];

  it.each(MOVED)('issue 27 (queries live in src/db): %s holds no query, and the rule covers it', async (file) => {
    expect(await queries(file, await readFile(path.join(ROOT, file), 'utf8'))).toEqual([]);
    expect(await queries(file, "export const lock = (db: any) => db.selectFrom('projects').execute();")).toHaveLength(1);
  });
});

// Statuses move only through src/lifecycle (docs/design.md#lifecycle): the status-writing queries
// are imported there alone, and no other query of src/db sets a status column.
describe('statuses move only through src/lifecycle (eslint/layers.js)', () => {
  const STATUS_WRITES = "import { writeProjectState } from '../db/status-writes';";
  it.each([
    ['src/activities/fixture.ts', STATUS_WRITES],
    ['src/api/projects/fixture.ts', "import { writeLanguageState } from '../../db/status-writes';"],
    ['src/cli/fixture.ts', STATUS_WRITES],
    ['src/webhooks/fixture.ts', STATUS_WRITES],
    ['src/webhooks/fixture.ts', "import { appendEventRow } from '../db/outbox-appends';"],
    ['src/activities/fixture.ts', "import { appendEventRow } from '../db/outbox-appends';"],
    ['src/db/fixture.ts', "export const end = (db: any, id: string) => db.updateTable('projects').set({ status: 'failed' }).where('id', '=', id).execute();"],
    ['src/db/fixture.ts', "export const end = (db: any, id: string) => db.updateTable('project_languages').set({ status: 'completed', percent: 100 }).where('project_id', '=', id).execute();"],
    ['src/db/fixture.ts', "export const pay = (db: any, id: string) => db.updateTable('projects').set({ usage_state: 'charged' }).where('id', '=', id).execute();"],
    ['src/db/fixture.ts', "export const bury = (db: any, id: string) => db.updateTable('projects').set({ deleted_at: new Date() }).where('id', '=', id).execute();"],
    ['src/db/fixture.ts', "export const mark = (db: any, id: string) => db.updateTable('project_languages').set({ redub_revision: 2 }).where('project_id', '=', id).execute();"],
  ])('%s may not: %s', async (file, code) => {
    const found = await queries(file, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/src\/lifecycle|status-writes|outbox-appends/);
  });

  it.each([
    ['src/lifecycle/fixture.ts', "import { writeProjectState } from '../db/status-writes';"],
    ['src/lifecycle/fixture.ts', "import { appendEventRow } from '../db/outbox-appends';"],
    ['src/db/status-writes.ts', "export const end = (db: any, id: string) => db.updateTable('projects').set({ status: 'failed' }).where('id', '=', id).execute();"],
    ['src/db/fixture.ts', "export const stale = (db: any, id: string) => db.updateTable('language_segments').set({ status: 'stale' }).where('project_id', '=', id).execute();"],
    ['src/db/fixture.ts', "export const touch = (db: any, id: string) => db.updateTable('projects').set({ name: 'x' }).where('id', '=', id).execute();"],
  ])('%s may: %s', async (file, code) => {
    expect(await queries(file, code)).toEqual([]);
  });

  it('the lifecycle holds no query of its own', async () => {
    expect(await queries('src/lifecycle/fixture.ts', "export const lock = (db: any) => db.selectFrom('projects').execute();")).toHaveLength(1);
  });
});
