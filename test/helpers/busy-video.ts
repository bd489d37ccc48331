import path from 'node:path';
import { ffmpeg, ffprobe, speak } from './media-fixtures';

const MiB = 1024 * 1024;

/**
 * A video with `english` spoken over a busy test pattern, so even a few seconds span several
 * upload parts; with `videoMiB`, noise at the bitrate that makes it about that big (an upload
 * that lasts long enough to watch).
 */
export async function makeBusyVideo(dir: string, fileName: string, english: string, videoMiB: number | null = null): Promise<string> {
  const speech = await speak(english, path.join(dir, `${fileName}.speech.wav`));
  const seconds = (await ffprobe(speech)).durationSeconds + 1;
  const out = path.join(dir, fileName);
  const bitrate = videoMiB ? Math.round((videoMiB * 8 * MiB) / seconds) : null;
  const encoding = bitrate ? ['-vf', 'noise=alls=30:allf=t', '-b:v', String(bitrate), '-maxrate', String(bitrate), '-bufsize', String(bitrate / 4)] : [];
  await ffmpeg(['-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=25:duration=${seconds}`, '-i', speech, '-c:v', 'libx264', '-preset', 'ultrafast', ...encoding, '-c:a', 'aac', '-shortest', out]);
  return out;
}
