import { ProjectBodies } from '../../../src/api/projects/project-bodies';

// The GET project's remembered bodies (docs/design.md#conditional-get): served only under the
// ETag they were sent with, bounded by their total length, least recently served out first.

describe('ProjectBodies', () => {
  it('issue 27 item 5: answers a body only under the exact ETag it was remembered with, per transfer choice', () => {
    const bodies = new ProjectBodies(1000);
    bodies.set('p1', true, '"3-t-x"', '{"a":1}');
    expect(bodies.get('p1', true, '"3-t-x"')).toBe('{"a":1}');
    expect(bodies.get('p1', true, '"4-t-x"')).toBeUndefined();
    expect(bodies.has('p1', true)).toBe(true);
    expect(bodies.has('p1', false)).toBe(false);
    expect(bodies.get('p1', false, '"3-t-x"')).toBeUndefined();
    // A newer version replaces the older one: one body per project and transfer choice.
    bodies.set('p1', true, '"4-t-x"', '{"a":22}');
    expect(bodies.get('p1', true, '"3-t-x"')).toBeUndefined();
    expect(bodies.get('p1', true, '"4-t-x"')).toBe('{"a":22}');
    expect(bodies.size).toEqual({ entries: 1, chars: 8 });
  });

  it('issue 27 item 5: stays within its bound, forgetting the least recently served body first', () => {
    const bodies = new ProjectBodies(30);
    bodies.set('p1', false, 'e1', 'x'.repeat(10));
    bodies.set('p2', false, 'e2', 'y'.repeat(10));
    bodies.set('p3', false, 'e3', 'z'.repeat(10));
    expect(bodies.get('p1', false, 'e1')).toBe('x'.repeat(10)); // p1 served: p2 is now the oldest
    bodies.set('p4', false, 'e4', 'w'.repeat(10));
    expect(bodies.has('p2', false)).toBe(false);
    expect(['p1', 'p3', 'p4'].every((p) => bodies.has(p, false))).toBe(true);
    expect(bodies.size).toEqual({ entries: 3, chars: 30 });
    // A body larger than the whole bound is not kept, and pushes nothing out.
    bodies.set('p5', false, 'e5', 'v'.repeat(31));
    expect(bodies.has('p5', false)).toBe(false);
    expect(bodies.size).toEqual({ entries: 3, chars: 30 });
  });
});
