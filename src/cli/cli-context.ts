import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Db } from '../db/create-db';

/** What a console command gets: parsed flags plus lazily created clients. */
export interface CliContext {
  config: Config;
  args: string[];
  flags: Record<string, string | true>;
  db(): Db;
  temporal(): Client;
  print(line: string): void;
}

export interface CliCommand {
  name: string;
  usage: string;
  summary: string;
  run(ctx: CliContext): Promise<void>;
}

export class UsageError extends Error {}

export function requireFlag(ctx: CliContext, name: string): string {
  const value = ctx.flags[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** Splits argv into positional args and --flag value / --flag=value / --switch. */
export function parseArgv(argv: string[]): { args: string[]; flags: Record<string, string | true> } {
  const args: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (!token.startsWith('--')) { args.push(token); continue; }
    const [name, inline] = token.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (inline !== undefined) flags[name] = inline;
    else if (i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) flags[name] = argv[++i]!;
    else flags[name] = true;
  }
  return { args, flags };
}
