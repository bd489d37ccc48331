import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';

// Runs one engine command the way a shell would (argument array, no shell), timing it and, when
// GNU time is installed, reading the command's own peak RSS (ru_maxrss) and CPU time from it.

const GNU_TIME = '/usr/bin/time';

export interface CommandResult {
  stdout: Buffer;
  stderr: string;
  ms: number;
  /** Peak resident set of the command (kB), or NaN without GNU time. */
  maxRssKb: number;
  /** User + system CPU of the command (ms), or NaN without GNU time. */
  cpuMs: number;
}

export function runCommand(command: string, args: readonly string[], options: { input?: string | Buffer; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<CommandResult> {
  const rssFile = path.join(os.tmpdir(), `bench-rss-${randomBytes(6).toString('hex')}`);
  const withTime = existsSync(GNU_TIME);
  const [bin, argv] = withTime ? [GNU_TIME, ['-f', '%M %U %S', '-o', rssFile, command, ...args]] : [command, [...args]];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(bin, argv, { env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => {
      err = (err + c.toString('utf8')).slice(-4000);
    });
    child.stdin.on('error', () => undefined);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      let maxRssKb = Number.NaN;
      let cpuMs = Number.NaN;
      if (withTime) {
        try {
          const [rss, user, system] = (readFileSync(rssFile, 'utf8').trim().split('\n').pop() ?? '').split(' ').map(Number);
          maxRssKb = rss ?? Number.NaN;
          cpuMs = ((user ?? Number.NaN) + (system ?? Number.NaN)) * 1000;
        } catch {
          // no file: the command did not run
        }
        rmSync(rssFile, { force: true });
      }
      if (code !== 0) return reject(new Error(`${command} exited with ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`));
      resolve({ stdout: Buffer.concat(out), stderr: err, ms, maxRssKb, cpuMs });
    });
    child.stdin.end(options.input);
  });
}

export const ffmpegArgs = (args: string[]) => ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args];

export async function probeDuration(file: string): Promise<number> {
  const { stdout } = await runCommand('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return Number(stdout.toString('utf8').trim());
}
