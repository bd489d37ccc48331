// Options every engine call accepts. Activities pass their heartbeat as onTick, and each call is
// bounded so one stuck child process cannot hold a worker slot forever.

export interface EngineCallOptions {
  /** Called every few seconds while the engine runs (Temporal activity heartbeat). */
  onTick?: () => void;
  /** Hard limit for each child process the call starts; each engine has its own default. */
  timeoutMs?: number;
}

/** Scales a default timeout with the media length, so long sources are not killed mid-work. */
export function timeoutFor(options: EngineCallOptions | undefined, baseMs: number, mediaSeconds = 0, msPerMediaSecond = 0): number {
  if (options?.timeoutMs !== undefined) return options.timeoutMs;
  return Math.round(baseMs + Math.max(0, mediaSeconds) * msPerMediaSecond);
}
