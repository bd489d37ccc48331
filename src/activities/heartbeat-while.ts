/**
 * How often a step with no progress of its own heartbeats: well inside the shortest heartbeat
 * timeout of a profile (30 s). The SDK sends at most one heartbeat per 80 % of that timeout, so
 * beating more often costs nothing on the wire.
 */
export const HEARTBEAT_EVERY_MS = 5000;

/**
 * Heartbeats while `work` runs, for a step that reports no progress (a blob store write of a
 * large file takes longer than a heartbeat timeout on S3). It proves the worker is alive, not that
 * the work advances: a write that hangs is bounded by the step's start-to-close instead.
 */
export async function heartbeatWhile<T>(work: () => Promise<T>, heartbeat: () => void, everyMs = HEARTBEAT_EVERY_MS): Promise<T> {
  heartbeat();
  const timer = setInterval(heartbeat, everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
