// Options every engine call accepts. Activities pass their heartbeat as onTick, and each call is
// bounded so one stuck child process cannot hold a worker slot forever.

export interface EngineCallOptions {
  /** Called every few seconds while the engine runs (Temporal activity heartbeat). */
  onTick?: () => void;
  /** Hard limit for each child process the call starts; each engine has its own default. */
  timeoutMs?: number;
}

let timeoutCapMs = 0;

/**
 * Caps every engine timeout in this process (0: no cap). Only the chaos suite sets it
 * (DUBBING_TEST_ENGINE_TIMEOUT_CAP_MS, refused outside NODE_ENV=test), so a hung engine is killed
 * in seconds rather than the half minute each attempt would otherwise wait.
 */
export function capEngineTimeouts(ms: number): void {
  timeoutCapMs = ms;
}

/** Scales a default timeout with the media length, so long sources are not killed mid-work. */
export function timeoutFor(options: EngineCallOptions | undefined, baseMs: number, mediaSeconds = 0, msPerMediaSecond = 0): number {
  const ms = options?.timeoutMs ?? Math.round(baseMs + Math.max(0, mediaSeconds) * msPerMediaSecond);
  return timeoutCapMs > 0 ? Math.min(ms, timeoutCapMs) : ms;
}
