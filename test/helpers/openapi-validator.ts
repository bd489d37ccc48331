import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** Validates an OpenAPI document with @seriousme/openapi-schema-validator (see openapi-validator.cli.ts). */
export async function validateOpenApiDocument(document: unknown): Promise<{ valid: boolean; errors: unknown[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/openapi-validator.cli.ts'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  child.stdin.end(JSON.stringify(document));
  const code = await exited;
  if (code !== 0) throw new Error(`the OpenAPI validator exited with ${code}`);
  return JSON.parse(Buffer.concat(output).toString('utf8')) as { valid: boolean; errors: unknown[] };
}
