import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A local video's duration in seconds, from ffprobe. The API bills `ceil(duration)` per language
 * once the source is validated, so knowing it first gives an exact quote and the ceiling to hold.
 * Node's own execFile rather than the engines' runner: that one records worker metrics, and the
 * CLI loads no server code (docs/cli.md).
 */
export async function probeDurationSeconds(file: string): Promise<number> {
  let stdout: string;
  try {
    ({ stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=noprint_wrappers=1:nokey=1', file], { timeout: 30_000, killSignal: 'SIGKILL' }));
  } catch (err) {
    const notFound = (err as NodeJS.ErrnoException).code === 'ENOENT';
    const stderr = String((err as { stderr?: unknown }).stderr ?? '')
      .trim()
      .split('\n')
      .slice(-3)
      .join(' | ');
    throw new Error(
      notFound
        ? 'ffprobe is not installed, so the duration is unknown: install ffmpeg, or pass --max-seconds.'
        : `ffprobe could not read ${file}: is it a video? (${stderr || (err instanceof Error ? err.message : String(err))})`,
    );
  }
  const seconds = Number(stdout.trim());
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`ffprobe found no duration in ${file}; pass --max-seconds.`);
  return seconds;
}
