import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

// The `dub` CLI as a person runs it: `node bin/dub.js …` in a child process, its key and API URL
// from the environment, in a folder of its own (so no .dev/credentials.json is found by accident).

export const ROOT = path.resolve(__dirname, '..', '..');
export const DUB_BIN = path.join(ROOT, 'bin', 'dub.js');

export interface DubRun {
  child: ChildProcess;
  /** Everything written so far (the child's stdout), read live by tests that watch it. */
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** The environment without any DUB_* of the machine's own, plus these. */
export function dubEnv(vars: { apiKey: string; baseUrl: string }): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('DUB_')) env[name] = value;
  return { ...env, DUB_API_KEY: vars.apiKey, DUB_BASE_URL: vars.baseUrl };
}

export function startDub(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): DubRun {
  const child = spawn(process.execPath, [DUB_BIN, ...args], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

export async function runDub(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = startDub(args, options);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}
