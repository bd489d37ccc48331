import type { AppDeps } from '../../../src/api/app-deps';
import { ifNoneMatchHits, projectETag, representationTag } from '../../../src/api/projects/project-etag';

// The project's ETag (docs/design.md#conditional-get): what it covers and when it is left out.

const deps = (partsRecordedInDatabase: boolean) => ({ uploads: { partsRecordedInDatabase } }) as unknown as AppDeps;
const config = (publicBaseUrl: string, signingSecret: string) => ({ http: { publicBaseUrl }, storage: { signingSecret } }) as unknown as AppDeps['config'];
const open = { view_version: 3, status: 'awaiting_upload', source_type: 'upload' } as const;
const running = { view_version: 3, status: 'processing', source_type: 'upload' } as const;

describe('project ETag', () => {
  it('issue 27 item 5: follows view_version and include_transfer, and is strong', () => {
    const tag = representationTag(config('http://api.test', 's'.repeat(32)));
    expect(projectETag(deps(true), tag, running, false)).toBe(`"3-n-${tag}"`);
    expect(projectETag(deps(true), tag, { ...running, view_version: 4 }, false)).toBe(`"4-n-${tag}"`);
    expect(projectETag(deps(true), tag, open, true)).toBe(`"3-t-${tag}"`);
  });

  it('issue 27 item 5: none while an upload is open on a store that alone knows its parts (s3)', () => {
    expect(projectETag(deps(false), 'x', open, true)).toBeUndefined();
    expect(projectETag(deps(false), 'x', open, false)).toBeUndefined();
    expect(projectETag(deps(false), 'x', running, true)).toBe('"3-t-x"');
  });

  it('issue 27 item 5: changes with the base URL and the signing secret in every URL', () => {
    const tags = new Set([
      representationTag(config('http://api.test', 's'.repeat(32))),
      representationTag(config('http://other.test', 's'.repeat(32))),
      representationTag(config('http://api.test', 't'.repeat(32))),
    ]);
    expect(tags.size).toBe(3);
  });

  it('issue 27 item 5: If-None-Match matches by weak comparison, in a list, or with *', () => {
    expect(ifNoneMatchHits('"3-n-x"', '"3-n-x"')).toBe(true);
    expect(ifNoneMatchHits('W/"3-n-x"', '"3-n-x"')).toBe(true);
    expect(ifNoneMatchHits('"2-n-x", "3-n-x"', '"3-n-x"')).toBe(true);
    expect(ifNoneMatchHits('*', '"3-n-x"')).toBe(true);
    expect(ifNoneMatchHits('"3-t-x"', '"3-n-x"')).toBe(false);
    expect(ifNoneMatchHits('', '"3-n-x"')).toBe(false);
  });
});
