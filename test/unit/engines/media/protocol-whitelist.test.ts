import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { FfmpegMediaEngine } from '../../../../src/engines/media/ffmpeg-media-engine';
import { InvalidMediaError } from '../../../../src/engines/media/invalid-media-error';
import { makeTempDir, makeTone, makeVideo, removeTempDir, speak } from '../../../helpers/media-fixtures';

// Uploads are read by ffprobe/ffmpeg. A playlist or SDP file names further URLs, which the
// demuxer would open (sockets included) unless the protocols are restricted to local files.

let dir: string;
beforeAll(() => {
  dir = makeTempDir('protocol-whitelist');
});
afterAll(() => removeTempDir(dir));

/** A loopback TCP listener that counts the connections it gets. */
async function listener(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    count += 1;
    sockets.add(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => count,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Stand-ins for ffmpeg and ffprobe that record their arguments and then run the real program,
 * so the test sees exactly what the engine passes while the media work really happens.
 */
function recordingEngine(): { engine: FfmpegMediaEngine; calls: () => { program: string; args: string[] }[] } {
  const log = path.join(dir, 'calls.log');
  writeFileSync(log, '');
  const wrap = (program: string) => {
    const file = path.join(dir, `recording-${program}`);
    writeFileSync(file, `#!/bin/sh\n{ printf '${program}'; printf '\\037%s' "$@"; printf '\\n'; } >> '${log}'\nexec ${program} "$@"\n`);
    chmodSync(file, 0o755);
    return file;
  };
  const engine = new FfmpegMediaEngine({ ffmpegPath: wrap('ffmpeg'), ffprobePath: wrap('ffprobe') });
  const calls = () =>
    readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [program, ...args] = line.split('\x1f');
        return { program: program!, args };
      });
  return { engine, calls };
}

describe('ffprobe/ffmpeg open local files only', () => {
  it('item 16: probing an uploaded HLS playlist or SDP file that points at a loopback listener fails fast as invalid media, with no connection', async () => {
    const server = await listener();
    try {
      const playlist = path.join(dir, 'upload.m3u8');
      writeFileSync(playlist, `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nhttp://127.0.0.1:${server.port}/segment.ts\n#EXT-X-ENDLIST\n`);
      const sdp = path.join(dir, 'upload.sdp');
      writeFileSync(sdp, `v=0\no=- 0 0 IN IP4 127.0.0.1\ns=upload\nc=IN IP4 127.0.0.1\nt=0 0\nm=audio ${server.port} RTP/AVP 0\na=rtpmap:0 PCMU/8000\n`);
      const media = new FfmpegMediaEngine();
      for (const file of [playlist, sdp]) {
        const started = Date.now();
        await expect(media.probe(file, { timeoutMs: 10_000 })).rejects.toBeInstanceOf(InvalidMediaError);
        expect(Date.now() - started).toBeLessThan(5_000);
      }
      expect(server.connections()).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('item 16: every ffprobe/ffmpeg call that reads a file passes -protocol_whitelist file,pipe before it', async () => {
    const speech = await speak('The whitelist applies to every input.', path.join(dir, 'speech.wav'));
    const video = await makeVideo(path.join(dir, 'video.mp4'), 2, speech);
    const tone = await makeTone(path.join(dir, 'tone.wav'), 1);
    const { engine, calls } = recordingEngine();

    await engine.probe(video);
    await engine.extractAudio(video, path.join(dir, 'asr.wav'));
    const background = await engine.extractBackground(video, path.join(dir, 'background.wav'));
    await engine.timeStretch(tone, path.join(dir, 'fast.wav'), 1.5);
    await engine.renderTimeline({ clips: [{ file: tone, startSeconds: 0.2 }], durationSeconds: 2, background: { file: background!, volume: 0.15 } }, path.join(dir, 'mix.wav'));
    await engine.encodeMp3(tone, path.join(dir, 'out.mp3'));
    await engine.encodeWav(tone, path.join(dir, 'out.wav'));
    await engine.renderTimelineToMp3AndWav({ clips: [{ file: tone, startSeconds: 0.2 }], durationSeconds: 2 }, path.join(dir, 'both.mp3'), path.join(dir, 'both.wav'));
    await engine.thumbnail({ source: video, hasVideo: true, atSeconds: 1, title: 'Whitelist' }, path.join(dir, 'thumb.png'));

    const recorded = calls();
    const probes = recorded.filter((c) => c.program === 'ffprobe');
    const runs = recorded.filter((c) => c.program === 'ffmpeg');
    expect(probes.length).toBeGreaterThanOrEqual(7); // a timeline render probes nothing: its inputs are opened by ffmpeg itself
    expect(runs).toHaveLength(8);
    for (const { args } of probes) {
      const at = args.indexOf('-protocol_whitelist');
      expect(at).toBeGreaterThanOrEqual(0);
      expect(args[at + 1]).toBe('file,pipe');
      expect(at + 1).toBeLessThan(args.length - 1); // before the input, which comes last
    }
    let fileInputs = 0;
    for (const { args } of runs) {
      args.forEach((arg, i) => {
        if (arg !== '-i' || !args[i + 1]!.startsWith('file:')) return;
        fileInputs += 1;
        expect(args.slice(i - 2, i)).toEqual(['-protocol_whitelist', 'file,pipe']);
      });
    }
    // extractAudio, extractBackground, timeStretch, two timeline inputs, mp3, wav, mp3+wav, thumbnail.
    expect(fileInputs).toBe(9);
  });
});
