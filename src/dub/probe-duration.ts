import { runProcess } from '../engines/run-process';

/**
 * A local video's duration in seconds, from ffprobe. The API bills `ceil(duration)` per language
 * once the source is validated, so knowing it first gives an exact quote and the ceiling to hold.
 */
export async function probeDurationSeconds(file: string): Promise<number> {
  let stdout: Buffer;
  try {
    ({ stdout } = await runProcess('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=noprint_wrappers=1:nokey=1', file], { timeoutMs: 30_000 }));
  } catch (err) {
    const notFound = (err as { notFound?: boolean }).notFound;
    throw new Error(notFound ? 'ffprobe is not installed, so the duration is unknown: install ffmpeg, or pass --max-seconds.' : `ffprobe could not read ${file}: is it a video? (${err instanceof Error ? err.message : String(err)})`);
  }
  const seconds = Number(stdout.toString('utf8').trim());
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`ffprobe found no duration in ${file}; pass --max-seconds.`);
  return seconds;
}
