import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// A directory to put first on a worker process's PATH: an engine of the same name that
// misbehaves for some arguments and runs the real engine for all others.

export interface EngineFault {
  /** What the arguments must contain, e.g. ' -v ca ' (spaces around each argument). */
  whenArgsContain: string;
  /** crash: SIGKILLs itself mid-call; hang: never exits (until the worker's timeout kills it). */
  does: 'crash' | 'hang';
}

export function engineWrapperDir(dir: string, engine: string, faults: EngineFault[]): string {
  const real = execFileSync('sh', ['-c', `command -v ${engine}`], { encoding: 'utf8' }).trim();
  const cases = faults.map((f) => `  *"${f.whenArgsContain}"*) ${f.does === 'crash' ? 'kill -9 $$' : 'exec sleep 3600'} ;;`);
  mkdirSync(dir, { recursive: true });
  const script = path.join(dir, engine);
  writeFileSync(script, ['#!/bin/sh', 'case " $* " in', ...cases, 'esac', `exec ${real} "$@"`, ''].join('\n'));
  chmodSync(script, 0o755);
  return dir;
}
