// Task queues, split by kind of work so each kind scales on its own:
// - `<TEMPORAL_TASK_QUEUE>` (default `dubbing`): workflow tasks and the short database steps. Cheap;
//   a few workers serve any load.
// - `<TEMPORAL_TASK_QUEUE>.media.<pool>`: the media steps (ffmpeg, pocketsphinx, apertium,
//   espeak-ng), CPU-bound. Workers with the same engine set form one pool and poll one queue; a
//   workflow asks which pool serves its language (a database step reading the workers' published
//   capabilities) and schedules the media steps there. See docs/scaling.md#routing.
// Tests use a fresh base queue per test file so parallel files never steal each other's tasks.
// Pure strings: safe in workflow code.

export const DEFAULT_TASK_QUEUE = 'dubbing';

/** The media queue a pool of workers polls, under the deployment's base queue. */
export function mediaTaskQueue(baseTaskQueue: string, pool: string): string {
  return `${baseTaskQueue}.media.${pool}`;
}

/** What a media step needs from its worker: a locale it can transcribe, or one it can dub into. */
export interface MediaNeed {
  locale: string;
  role: 'source' | 'target';
  /**
   * For a target: the project whose source it is translated from, since a worker may translate
   * from some source languages only (docs/engines.md). Absent: from English.
   */
  projectId?: string;
}
