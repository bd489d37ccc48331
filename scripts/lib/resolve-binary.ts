import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Runs one of the scripts that find or build a tool (scripts/temporal-cli.sh, scripts/s3-server.sh)
 * and returns the path it prints last; its progress goes to this process's stderr.
 */
export function resolveBinary(script: string): string {
  const out = execFileSync('bash', [path.join(ROOT, 'scripts', script)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  return out.trim().split('\n').pop() ?? '';
}
