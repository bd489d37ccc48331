import { VideoPageCache } from '../../../src/api/youtube/video-page-cache';
import type { ListedVideo } from '../../../src/db/youtube';

const video = (id: string): ListedVideo => ({ id, title: `Video ${id}`, duration_seconds: 60, published_at: new Date(0), availability: 'available' });

describe('VideoPageCache', () => {
  it('keeps a page with its version and forgets the least recently used beyond its size', () => {
    const cache = new VideoPageCache(2);
    cache.set('a', 1, [video('a1')]);
    cache.set('b', 1, [video('b1')]);
    expect(cache.get('a')?.videos.map((v) => v.id)).toEqual(['a1']); // a is now the most recent
    cache.set('c', 3, [video('c1')]);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.version).toBe(1);
    expect(cache.get('c')?.version).toBe(3);
  });

  it("keeps a page's ids, and each workspace's matches with its projects version, bounded per page", () => {
    const cache = new VideoPageCache(2, 2);
    const page = cache.set('a', 1, [video('a1'), video('a2')])!;
    expect(page.videoIds).toEqual(['a1', 'a2']);
    expect(page.matches.size).toBe(0); // a page read anew knows no workspace's matches
    const none = new Map();
    cache.rememberMatches(page, 'w1', { projectsVersion: 5, matches: none });
    cache.rememberMatches(page, 'w2', { projectsVersion: 7, matches: none });
    cache.rememberMatches(page, 'w1', { projectsVersion: 9, matches: none }); // replaces w1's older one
    expect(page.matches.get('w1')?.projectsVersion).toBe(9);
    cache.rememberMatches(page, 'w3', { projectsVersion: 2, matches: none }); // w2 is the oldest written
    expect([...page.matches.keys()]).toEqual(['w1', 'w3']);
    // The page read again (its mirror moved) starts with no matches at all.
    expect(cache.set('a', 2, [video('a3')])!.matches.size).toBe(0);
  });

  it('remembers nothing with size 0', () => {
    const cache = new VideoPageCache(0);
    expect(cache.set('a', 1, [video('a1')])).toBeUndefined();
    expect(cache.get('a')).toBeUndefined();
  });

  it('keys never collide between a query and its absence, or across limits', () => {
    const keys = [
      VideoPageCache.key('UC1', undefined, 20),
      VideoPageCache.key('UC1', '', 20),
      VideoPageCache.key('UC1', 'rice', 20),
      VideoPageCache.key('UC1', 'rice', 2),
      VideoPageCache.key('UC1', '20\nrice', 2),
      VideoPageCache.key('UC2', 'rice', 20),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});
