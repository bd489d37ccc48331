import { markdownSection, readRepoFile, shellBlocks } from '../../helpers/readme-blocks';

// The README's "Dubbing a video, end to end" prints the steps of examples/dub-a-video.sh, which
// test/e2e/examples-walkthrough.test.ts runs against the real stack. This keeps the two one text:
// every command block of that section must be in the script word for word, and every numbered
// step of the script must be in the README.

const readme = readRepoFile('README.md');
const script = readRepoFile('examples/dub-a-video.sh');

describe("the README's walkthrough and examples/dub-a-video.sh", () => {
  const walkthrough = markdownSection(readme, '## Dubbing a video, end to end');
  const blocks = shellBlocks(walkthrough);

  it('points at the script', () => {
    expect(walkthrough).toContain('examples/dub-a-video.sh');
  });

  it('prints only blocks that are in the script word for word', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    for (const block of blocks) expect({ block, inScript: script.includes(block) }).toEqual({ block, inScript: true });
  });

  it('prints every numbered step of the script', () => {
    const steps = [...script.matchAll(/^# (\d+)\. .*$/gm)].map((m) => m[0]);
    expect(steps.length).toBeGreaterThanOrEqual(5);
    const printed = blocks.join('\n');
    for (const step of steps) expect({ step, printed: printed.includes(step) }).toEqual({ step, printed: true });
  });

  it('uses nothing a fresh machine lacks (no uuidgen, no jq, no GNU-only stat)', () => {
    for (const text of [script, walkthrough]) expect(text).not.toMatch(/\buuidgen\b|\bjq\b|stat -c/);
  });
});
