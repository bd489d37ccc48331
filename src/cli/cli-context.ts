import type { Client } from '@temporalio/client';
import { loadConfig, type Config } from '../config';
import { createDb, type Db } from '../db/create-db';
import { databaseUrl } from '../db/database-url';
import { createTemporalClient } from '../temporal/connection';
import { createYouTubeClient, type YouTubeClient } from '../sources/youtube/create-youtube-client';

/**
 * What a console command gets. Everything is created on first use, so a command refused while
 * parsing (or `help`) never reads the configuration, opens a pool or dials Temporal.
 */
export interface CliContext {
  readonly config: Config;
  db(): Db;
  temporal(): Client;
  /** The YouTube Data API client; throws a clear error when YOUTUBE_API_KEY is not set. */
  youtube(): YouTubeClient;
  print(line: string): void;
}

/**
 * A command's input is wrong in a way only its action can tell (a missing pair of flags, two
 * flags that exclude each other): the console prints the command's usage and exits 2. What the
 * state refuses (no such language, a language that is not failed) is a plain Error instead: one
 * line on stderr, exit 1.
 */
export class UsageError extends Error {}

export function createCliContext(print: (line: string) => void): { ctx: CliContext; close(): Promise<void> } {
  let config: Config | undefined;
  let db: Db | undefined;
  let temporal: Client | undefined;
  let youtube: YouTubeClient | undefined;
  const ctx: CliContext = {
    get config() {
      return (config ??= loadConfig());
    },
    db: () => (db ??= createDb({ url: databaseUrl(ctx.config), poolMax: 2, applicationName: 'dubbing-console' })),
    temporal: () => (temporal ??= createTemporalClient(ctx.config)),
    youtube: () => (youtube ??= createYouTubeClient(ctx.config)),
    print,
  };
  return {
    ctx,
    async close() {
      await db?.destroy();
      await temporal?.connection.close();
    },
  };
}
