import { readFileSync } from 'node:fs';
import path from 'node:path';

// The README's shell blocks, by section, for tests that check them against the examples or run
// them as a reader would paste them.

export const REPO_ROOT = path.resolve(__dirname, '../..');

export function readRepoFile(relative: string): string {
  return readFileSync(path.join(REPO_ROOT, relative), 'utf8');
}

/** The text under `heading` (a whole line, e.g. "### Adding languages later, human review") up to the next heading; a `#` in a code block is no heading. */
export function markdownSection(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`no "${heading}" heading`);
  let inCode = false;
  let end = start + 1;
  for (; end < lines.length; end++) {
    if (lines[end]!.startsWith('```')) inCode = !inCode;
    else if (!inCode && /^#{1,6} /.test(lines[end]!)) break;
  }
  return lines.slice(start + 1, end).join('\n');
}

/** The contents of its ```sh blocks, in order. */
export function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}
