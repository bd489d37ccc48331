import { interpretFfprobeJson } from '../../../../src/engines/media/probe-result';

const json = (value: unknown): string => JSON.stringify(value);

describe('interpretFfprobeJson', () => {
  it('reads a video with sound', () => {
    const result = interpretFfprobeJson(
      json({ streams: [{ codec_type: 'video', codec_name: 'vp9' }, { codec_type: 'audio', codec_name: 'opus', channels: 6 }], format: { format_name: 'matroska,webm', duration: '12.5' } }),
    );
    expect(result).toEqual({
      ok: true,
      probe: { durationSeconds: 12.5, hasAudio: true, hasVideo: true, formatName: 'matroska,webm' },
      audioChannels: 6,
      codecs: { video: 'vp9', audio: 'opus' },
    });
  });

  it('does not count cover art as video', () => {
    const result = interpretFfprobeJson(
      json({
        streams: [{ codec_type: 'audio', codec_name: 'mp3' }, { codec_type: 'video', codec_name: 'mjpeg', disposition: { attached_pic: 1 } }],
        format: { format_name: 'mp3', duration: '3.0' },
      }),
    );
    expect(result.ok && result.probe.hasVideo).toBe(false);
    expect(result.ok && result.codecs).toEqual({ video: null, audio: 'mp3' });
  });

  it('falls back to the longest stream when the container has no duration', () => {
    const result = interpretFfprobeJson(
      json({ streams: [{ codec_type: 'audio', duration: '2.5' }, { codec_type: 'video', duration: '3.25' }], format: { format_name: 'x' } }),
    );
    expect(result.ok && result.probe.durationSeconds).toBe(3.25);
  });

  it.each([
    ['a subtitle-only detection (what random bytes sometimes become)', json({ streams: [{ codec_type: 'subtitle' }], format: { format_name: 'lrc' } })],
    ['no streams', json({ streams: [], format: { format_name: 'tty', duration: '1' } })],
    ['a still image', json({ streams: [{ codec_type: 'video' }], format: { format_name: 'png_pipe', duration: 'N/A' } })],
    ['zero duration', json({ streams: [{ codec_type: 'audio' }], format: { format_name: 'wav', duration: '0.000000' } })],
    ['garbage output', 'not json'],
  ])('refuses %s', (_name, output) => {
    const result = interpretFfprobeJson(output);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason.length).toBeGreaterThan(0);
  });
});
