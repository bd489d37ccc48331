import { ProjectViewCache } from '../../../src/api/projects/project-view-cache';

// The cache serves a rendered project body again while the project's view_version holds. A body
// with signed URLs (the transfer block) must not be served once those URLs could have expired.

const T0 = 1_700_000_000_000;

describe('ProjectViewCache', () => {
  it('item 15: serves a body with signed URLs for at most half of SIGNED_URL_TTL_SECONDS', () => {
    const cache = new ProjectViewCache({ signedUrlTtlSeconds: 10 });
    cache.set('p1', true, 3, 'with-urls', T0);
    expect(cache.get('p1', true, 3, T0 + 4_999)).toBe('with-urls');
    // The URLs in it were signed for 10 s at T0; from here a cached copy would have < 5 s left,
    // and after 10 s (the old fixed 60 s window) none at all.
    expect(cache.get('p1', true, 3, T0 + 5_000)).toBeUndefined();
    expect(cache.get('p1', true, 3, T0 + 11_000)).toBeUndefined();
  });

  it('item 15: keeps the 60 s re-sign cap when the TTL is long', () => {
    const cache = new ProjectViewCache({ signedUrlTtlSeconds: 900 });
    cache.set('p1', true, 1, 'with-urls', T0);
    expect(cache.get('p1', true, 1, T0 + 59_999)).toBe('with-urls');
    expect(cache.get('p1', true, 1, T0 + 60_000)).toBeUndefined();
  });

  it('serves a body without signed URLs until its version changes', () => {
    const cache = new ProjectViewCache({ signedUrlTtlSeconds: 10 });
    cache.set('p1', false, 1, 'plain', T0);
    expect(cache.get('p1', false, 1, T0 + 3_600_000)).toBe('plain');
    expect(cache.get('p1', false, 2, T0)).toBeUndefined();
    expect(cache.get('p1', true, 1, T0)).toBeUndefined();
  });

  it('evicts the least recently used body past maxEntries', () => {
    const cache = new ProjectViewCache({ signedUrlTtlSeconds: 900, maxEntries: 2 });
    cache.set('a', false, 1, 'A', T0);
    cache.set('b', false, 1, 'B', T0);
    expect(cache.get('a', false, 1, T0)).toBe('A'); // a is now the most recent
    cache.set('c', false, 1, 'C', T0);
    expect(cache.get('b', false, 1, T0)).toBeUndefined();
    expect(cache.get('a', false, 1, T0)).toBe('A');
    expect(cache.get('c', false, 1, T0)).toBe('C');
  });
});
