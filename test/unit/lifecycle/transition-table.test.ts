import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assertMove, canMove, IllegalTransitionError, MACHINES, sourcesOf, type Machine } from '../../../src/lifecycle/transition-table';

// The state diagrams of docs/design.md#lifecycle are the transition table: each Mermaid block
// marked `%% machine: <name>` must draw exactly the arrows of that machine in
// src/lifecycle/transition-table.ts, no more and no fewer.

const DESIGN = readFileSync(path.resolve(__dirname, '..', '..', '..', 'docs', 'design.md'), 'utf8');

function diagrams(markdown: string): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const [, body] of markdown.matchAll(/```mermaid\n([\s\S]*?)```/g)) {
    const machine = /%%\s*machine:\s*(\w+)/.exec(body!)?.[1];
    if (!machine) continue;
    const arrows = new Set<string>();
    for (const line of body!.split('\n')) {
      const arrow = /^\s*(\[\*\]|\w+)\s*-->\s*(\[\*\]|\w+)\s*(:.*)?$/.exec(line);
      if (arrow) arrows.add(`${arrow[1]} --> ${arrow[2]}`);
    }
    found.set(machine, arrows);
  }
  return found;
}

const drawn = diagrams(DESIGN);
const tabled = (machine: Machine) => new Set(MACHINES[machine].map(([from, to]) => `${from} --> ${to}`));

describe('the transition table and docs/design.md#lifecycle', () => {
  it('draws one diagram per machine, and no other', () => {
    expect([...drawn.keys()].sort()).toEqual(Object.keys(MACHINES).sort());
  });

  it.each(Object.keys(MACHINES) as Machine[])("the %s diagram draws exactly the table's arrows", (machine) => {
    expect([...(drawn.get(machine) ?? [])].sort()).toEqual([...tabled(machine)].sort());
  });

  it('the parser sees a missing or an extra arrow', () => {
    const edited = DESIGN.replace('processing --> partially_completed', 'processing --> awaiting_upload');
    const arrows = diagrams(edited).get('project')!;
    expect(arrows.has('processing --> partially_completed')).toBe(false);
    expect(arrows.has('processing --> awaiting_upload')).toBe(true);
  });
});

describe('moves', () => {
  it('allows the arrows and staying put, refuses the rest', () => {
    expect(canMove('project', 'validating', 'processing')).toBe(true);
    expect(canMove('project', 'completed', 'completed')).toBe(true);
    expect(canMove('project', 'awaiting_upload', 'processing')).toBe(false);
    expect(canMove('language', 'completed', 'failed')).toBe(false);
    expect(canMove('regeneration', 'failed', 'completed')).toBe(false);
    expect(canMove('review', 'expired', 'verified')).toBe(false);
  });

  it('throws IllegalTransitionError naming the machine, the subject and the move', () => {
    expect(() => assertMove('language', 'p1/es_es', 'completed', 'queued')).toThrow(IllegalTransitionError);
    expect(() => assertMove('language', 'p1/es_es', 'completed', 'queued')).toThrow('language p1/es_es: no transition completed → queued');
  });

  it('lists where a state is reached from, itself included', () => {
    expect(sourcesOf('language', 'dubbing').sort()).toEqual(['dubbing', 'translating']);
    expect(sourcesOf('language', 'translating').sort()).toEqual(['queued', 'translating']);
  });
});
