import { toChannel, toUpload, toVideo, type WireVideo } from '../../../../src/sources/youtube/data-api-resources';
import { YouTubeApiError } from '../../../../src/sources/youtube/youtube-api-error';

const wireVideo: WireVideo = {
  id: 'dQw4w9WgXcQ',
  snippet: { publishedAt: '2009-10-25T06:57:33Z', channelId: 'UCuAXFkgsw1L7xaCfnd5JJOw', title: 'T', description: 'D', liveBroadcastContent: 'none' },
  contentDetails: { duration: 'PT3M33S', contentRating: {} },
  status: { uploadStatus: 'processed', privacyStatus: 'public', embeddable: true },
};

describe('Data API resources', () => {
  it('maps a video, with the availability rules applied', () => {
    expect(toVideo(wireVideo)).toEqual({
      id: 'dQw4w9WgXcQ',
      channelId: 'UCuAXFkgsw1L7xaCfnd5JJOw',
      title: 'T',
      description: 'D',
      publishedAt: '2009-10-25T06:57:33Z',
      durationSeconds: 213,
      privacyStatus: 'public',
      uploadStatus: 'processed',
      liveBroadcastContent: 'none',
      embeddable: true,
      ageRestricted: false,
      regionRestriction: null,
      availability: 'available',
      unavailableReason: null,
    });
    const restricted = toVideo({
      ...wireVideo,
      contentDetails: { duration: 'bogus', contentRating: { ytRating: 'ytAgeRestricted' }, regionRestriction: { blocked: ['DE'] } },
      status: { uploadStatus: 'rejected', rejectionReason: 'copyright', privacyStatus: 'public', embeddable: false },
    });
    expect(restricted).toMatchObject({
      durationSeconds: null,
      ageRestricted: true,
      embeddable: false,
      regionRestriction: { blocked: ['DE'] },
      availability: 'unavailable',
      unavailableReason: 'rejected: copyright',
    });
  });

  it('refuses a video without its status, rather than guessing it is available', () => {
    expect(() => toVideo({ ...wireVideo, status: undefined })).toThrow(YouTubeApiError);
  });

  it('takes the handle only when customUrl is one', () => {
    const wire = { id: 'UC_x5XG1OV2P6uZZ5FSM9Ttw', snippet: { title: 'G', customUrl: '@googledevelopers' }, contentDetails: { relatedPlaylists: { uploads: 'UU_x5XG1OV2P6uZZ5FSM9Ttw' } } };
    expect(toChannel(wire)).toEqual({ id: wire.id, title: 'G', handle: '@googledevelopers', uploadsPlaylistId: 'UU_x5XG1OV2P6uZZ5FSM9Ttw' });
    expect(toChannel({ ...wire, snippet: { title: 'G', customUrl: 'googledevelopers' } })).not.toHaveProperty('handle');
  });

  it('leaves out a playlist item the key cannot see (no videoPublishedAt)', () => {
    expect(toUpload({ contentDetails: { videoId: 'dQw4w9WgXcQ', videoPublishedAt: '2009-10-25T06:57:33Z' } })).toEqual({ id: 'dQw4w9WgXcQ', publishedAt: '2009-10-25T06:57:33Z' });
    expect(toUpload({ contentDetails: { videoId: 'dQw4w9WgXcQ' } })).toBeNull();
  });
});
