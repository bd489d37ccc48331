import fc from 'fast-check';
import type { ListedVideo, MatchingProjectRow } from '../../../src/db/youtube';
import { presentVideo, renderVideoList } from '../../../src/api/youtube/video-presenter';

// renderVideoList writes the video list body from remembered per-video JSON; it must be, byte for
// byte, what JSON.stringify of the object form gives, with or without matching projects, on the
// first render of a page and on every later one.

const channel = { channel_id: 'UCabcdefghijklmnopqrstuv', title: 'Kitchen "basics" \u2013 é' };

const video = (id: string, overrides: Partial<ListedVideo> = {}): ListedVideo => ({
  id,
  title: `Cooking rice ${id}`,
  duration_seconds: 61,
  published_at: new Date('2026-11-20T10:00:00.123Z'),
  availability: 'available',
  ...overrides,
});

const match = (videoId: string, overrides: Partial<MatchingProjectRow> = {}): MatchingProjectRow => ({
  id: '7f1c2d9e-1111-4222-8333-944445555666',
  youtube_video_id: videoId,
  target_locales: ['es_es', 'ca_es'],
  status: 'processing',
  usage_state: 'charged',
  ...overrides,
});

const objectForm = (videos: ListedVideo[], matches: Map<string, MatchingProjectRow>) =>
  JSON.stringify({ data: { connection_required: false, channel, items: videos.map((v) => presentVideo(v, matches.get(v.id))) } });

it('an empty page, a page without matches and one with a match are what JSON.stringify writes, again and again', () => {
  const videos = [video('aaaaaaaaaaa'), video('bbbbbbbbbbb', { duration_seconds: null, availability: 'private', title: 'Ünïcode \\ "quoted"' }), video('ccccccccccc')];
  expect(renderVideoList(channel, [], new Map())).toBe(objectForm([], new Map()));
  expect(renderVideoList(channel, videos, new Map())).toBe(objectForm(videos, new Map()));
  const matches = new Map([['bbbbbbbbbbb', match('bbbbbbbbbbb')]]);
  for (let i = 0; i < 3; i++) expect(renderVideoList(channel, videos, matches)).toBe(objectForm(videos, matches));
  // A match that comes and goes on a remembered page shows exactly when it is there.
  expect(JSON.parse(renderVideoList(channel, videos, new Map())).data.items[1].matching_project).toBeUndefined();
  expect(JSON.parse(renderVideoList(channel, videos, matches)).data.items[1].matching_project).toEqual({ project_id: match('x').id, state: 'verified', target_locales: ['es_es', 'ca_es'] });
  // The body written for these matches is reused only for the same videos and channel.
  const renamed = { ...channel, title: 'Renamed channel' };
  expect(renderVideoList(renamed, videos, matches)).toBe(JSON.stringify({ data: { connection_required: false, channel: renamed, items: videos.map((v) => presentVideo(v, matches.get(v.id))) } }));
  expect(renderVideoList(channel, videos.slice(1), matches)).toBe(objectForm(videos.slice(1), matches));
  expect(renderVideoList(channel, videos, matches)).toBe(objectForm(videos, matches));
});

it('any titles, durations and matches render as JSON.stringify does (property)', () => {
  const videoArb = fc.record({
    id: fc.stringMatching(/^[A-Za-z0-9_-]{11}$/),
    title: fc.string({ unit: 'grapheme', maxLength: 40 }),
    duration_seconds: fc.option(fc.integer({ min: 0, max: 86_400 }), { nil: null }),
    published_at: fc.date({ min: new Date('2005-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true }),
    availability: fc.constantFrom('available', 'private', 'unavailable', 'live' as const),
  });
  fc.assert(
    fc.property(fc.array(videoArb, { maxLength: 25 }), fc.array(fc.boolean(), { minLength: 25, maxLength: 25 }), fc.string({ maxLength: 20 }), (videos, matched, title) => {
      const matches = new Map(videos.filter((_, i) => matched[i]).map((v) => [v.id, match(v.id, { status: 'failed', usage_state: 'released' })] as const));
      const ch = { channel_id: channel.channel_id, title };
      const expected = JSON.stringify({ data: { connection_required: false, channel: ch, items: videos.map((v) => presentVideo(v, matches.get(v.id))) } });
      expect(renderVideoList(ch, videos, matches)).toBe(expected);
      expect(renderVideoList(ch, videos, new Map())).toBe(JSON.stringify({ data: { connection_required: false, channel: ch, items: videos.map((v) => presentVideo(v, undefined)) } }));
    }),
    { numRuns: 300 },
  );
});
