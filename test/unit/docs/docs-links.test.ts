import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The repository is its own reference: every link in README.md, docs/ and examples/ must lead to
// a file in the repository (or to the web), never to a path outside it such as ../shared/…,
// which a clone does not have.

const ROOT = path.resolve(__dirname, '../../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

/** Markdown links and images, inline `[text](target)` and reference `[label]: target`, outside code. */
function markdownLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  const inline = [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const reference = [...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((m) => m[1]!);
  return [...inline, ...reference];
}

/** Why a link is wrong, or null: web links pass; anything else must resolve to a file in the repository. */
function problem(file: string, target: string): string | null {
  if (/^(https?|mailto):/i.test(target)) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return `a ${target.split(':')[0]}: link`;
  const pathPart = decodeURIComponent(target.split('#')[0]!);
  if (pathPart === '') return null; // an anchor in the same file
  if (pathPart.startsWith('/')) return 'an absolute path';
  const resolved = path.resolve(path.dirname(file), pathPart);
  if (path.relative(ROOT, resolved).startsWith('..')) return 'a path outside the repository';
  if (!existsSync(resolved)) return 'no such file in the repository';
  return null;
}

const files = [path.join(ROOT, 'README.md'), ...markdownFiles(path.join(ROOT, 'docs')), ...markdownFiles(path.join(ROOT, 'examples'))];

describe('links in README.md, docs/ and examples/', () => {
  it('finds the documents and their links', () => {
    expect(files.length).toBeGreaterThan(1);
    expect(markdownLinks(readFileSync(files[0]!, 'utf8')).length).toBeGreaterThan(5);
  });

  it.each(files.map((f) => [path.relative(ROOT, f), f]))('%s links only inside the repository', (_name, file) => {
    const bad = markdownLinks(readFileSync(file, 'utf8'))
      .map((target) => ({ target, problem: problem(file, target) }))
      .filter((link) => link.problem !== null);
    expect(bad).toEqual([]);
  });

  it('names no path outside the repository in prose or code either', () => {
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect({ file: path.relative(ROOT, file), outside: text.match(/\.\.\/shared\/|\/work\/\w+/g) }).toEqual({ file: path.relative(ROOT, file), outside: null });
    }
  });

  it('tells a bad link from a good one', () => {
    const readme = path.join(ROOT, 'README.md');
    expect(markdownLinks('see [the spec](../shared/spec/api-spec.md) and `[not](a-link.md)`')).toEqual(['../shared/spec/api-spec.md']);
    expect(problem(readme, '../shared/spec/api-spec.md')).toBe('a path outside the repository');
    expect(problem(readme, '/etc/hosts')).toBe('an absolute path');
    expect(problem(readme, 'docs/no-such-page.md')).toBe('no such file in the repository');
    expect(problem(readme, 'docs/notes-api.md#import')).toBeNull();
    expect(problem(readme, '#decisions')).toBeNull();
    expect(problem(readme, 'https://docs.temporal.io/')).toBeNull();
  });
});
