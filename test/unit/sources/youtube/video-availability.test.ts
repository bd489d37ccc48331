import { videoAvailability } from '../../../../src/sources/youtube/video-availability';

const base = { privacyStatus: 'public', uploadStatus: 'processed', liveBroadcastContent: 'none' };

describe('videoAvailability', () => {
  it('a processed public or unlisted video is available', () => {
    expect(videoAvailability(base)).toEqual({ availability: 'available', unavailableReason: null });
    expect(videoAvailability({ ...base, privacyStatus: 'unlisted' })).toEqual({ availability: 'available', unavailableReason: null });
  });

  it('private wins over everything else', () => {
    expect(videoAvailability({ ...base, privacyStatus: 'private', uploadStatus: 'rejected', liveBroadcastContent: 'live' })).toEqual({ availability: 'private', unavailableReason: 'private' });
  });

  it.each(['live', 'upcoming'])('a %s broadcast is live, even if its upload reads processed', (live) => {
    expect(videoAvailability({ ...base, liveBroadcastContent: live })).toEqual({ availability: 'live', unavailableReason: live });
    expect(videoAvailability({ ...base, liveBroadcastContent: live, uploadStatus: 'uploaded' }).availability).toBe('live');
  });

  it.each([
    [{ uploadStatus: 'rejected', rejectionReason: 'copyright' }, 'rejected: copyright'],
    [{ uploadStatus: 'failed', failureReason: 'codec' }, 'failed: codec'],
    [{ uploadStatus: 'deleted' }, 'deleted'],
    [{ uploadStatus: 'uploaded' }, 'uploaded'],
  ])('upload status %j is unavailable (%s)', (fields, reason) => {
    expect(videoAvailability({ ...base, ...fields })).toEqual({ availability: 'unavailable', unavailableReason: reason });
  });
});
