import { interpretFfprobeJson } from '../../../../src/engines/media/probe-result';

const json = (value: unknown): string => JSON.stringify(value);

describe('interpretFfprobeJson', () => {
  it('reads a video with sound', () => {
    const result = interpretFfprobeJson(
      json({
        streams: [
          { codec_type: 'video', codec_name: 'vp9' },
          { codec_type: 'audio', codec_name: 'opus', channels: 6 },
        ],
        format: { format_name: 'matroska,webm', duration: '12.5' },
      }),
    );
    expect(result).toEqual({
      ok: true,
      probe: { durationSeconds: 12.5, hasAudio: true, hasVideo: true, formatName: 'matroska,webm' },
      audioChannels: 6,
      codecs: { video: 'vp9', audio: 'opus' },
      picture: null,
    });
  });

  it("reads the picture's size and frame rate (the average, else the base rate)", () => {
    const picture = (stream: object) => {
      const result = interpretFfprobeJson(json({ streams: [{ codec_type: 'video', codec_name: 'h264', ...stream }], format: { format_name: 'mp4', duration: '2' } }));
      return result.ok ? result.picture : undefined;
    };
    expect(picture({ width: 3840, height: 2160, avg_frame_rate: '60000/1001', r_frame_rate: '60/1' })).toEqual({ width: 3840, height: 2160, fps: 60000 / 1001 });
    expect(picture({ width: 640, height: 360, avg_frame_rate: '0/0', r_frame_rate: '25/1' })).toEqual({ width: 640, height: 360, fps: 25 });
    expect(picture({ width: 640, height: 360 })).toEqual({ width: 640, height: 360, fps: 0 });
    expect(picture({ width: 0, height: 360 })).toBeNull();
  });

  it('does not count cover art as video', () => {
    const result = interpretFfprobeJson(
      json({
        streams: [
          { codec_type: 'audio', codec_name: 'mp3' },
          { codec_type: 'video', codec_name: 'mjpeg', disposition: { attached_pic: 1 } },
        ],
        format: { format_name: 'mp3', duration: '3.0' },
      }),
    );
    expect(result.ok && result.probe.hasVideo).toBe(false);
    expect(result.ok && result.codecs).toEqual({ video: null, audio: 'mp3' });
  });

  it('falls back to the longest stream when the container has no duration', () => {
    const result = interpretFfprobeJson(
      json({
        streams: [
          { codec_type: 'audio', duration: '2.5' },
          { codec_type: 'video', duration: '3.25' },
        ],
        format: { format_name: 'x' },
      }),
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
