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

async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

const FORBIDDEN: Array<[file: string, code: string]> = [
  ['src/dub/fixture.ts', "import { createDb } from '../db/create-db';"],
  ['src/dub/fixture.ts', "import { Pool } from 'pg';"],
  ['src/dub/fixture.ts', "import { Kysely } from 'kysely';"],
  ['src/dub/fixture.ts', "import { Counter } from 'prom-client';"],
  ['src/dub/commands/fixture.ts', "import { youtubeVideoId } from '../../api/projects/youtube-url';"],
  ['src/dub/fixture.ts', "import { runProcess } from '../engines/run-process';"],
  ['src/dub/fixture.ts', "import { Client } from '@temporalio/client';"],
  ['src/dub/fixture.ts', "import { S3Client } from '@aws-sdk/client-s3';"],
  ['src/sources/youtube/fixture.ts', "import { VIDEO_ID_PATTERN } from '../../db/youtube';"],
  ['src/api/projects/fixture.ts', "import { chargeReference } from '../../activities/language-settlement';"],
  ['src/api/fixture.ts', "import { runCommand } from '../cli/console';"],
  ['src/webhooks/fixture.ts', "import { presentProject } from '../api/projects/project-presenter';"],
  ['src/cli/fixture.ts', "import { validateBody } from '../api/middleware/validate';"],
  ['src/db/fixture.ts', "import { creditEntries } from '../metrics/metrics';"],
  ['src/db/fixture.ts', "import { storage } from '../storage/blob-store';"],
  ['src/shared/fixture.ts', "import type { Db } from '../db/create-db';"],
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
  ['src/dub/fixture.ts', "import { loadDubCliEnv } from '../config';"],
  ['src/dub/fixture.ts', "import { youtubeVideoId } from '../shared/youtube-video-id';"],
  ['src/api/projects/fixture.ts', "import { findProject } from '../../db/projects';"],
  ['src/api/projects/fixture.ts', "import { presentProject } from '../../project-view/project-presenter';"],
  ['src/workflows/fixture.ts', "import type { BillingActivities } from '../activities/billing.activities';"],
  ['src/workflows/fixture.ts', "import { proxyActivities } from '@temporalio/workflow';"],
  ['src/temporal/fixture.ts', "import type { projectWorkflow } from '../workflows/project.workflow';"],
  ['src/db/fixture.ts', "import type { EngineCapabilities } from '../engines/capabilities';"],
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
