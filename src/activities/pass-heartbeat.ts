import { Context } from '@temporalio/activity';

/** How often a long pass reports that it is alive; well inside its heartbeat timeout. */
const EVERY_MS = 2000;

export interface PassHeartbeat {
  /** Throws once Temporal has given up on this attempt (timed out, cancelled): it must stop acting. */
  check(): void;
  stop(): void;
}

/**
 * Heartbeats on a timer while a long pass runs, so an attempt lost with its worker is noticed
 * within the heartbeat timeout, while a slow but live one is not. Temporal answers a heartbeat of
 * an attempt it has given up on by cancelling it; `check` turns that into an error between steps,
 * so an attempt that was replaced stops instead of acting beside its replacement. Outside a worker
 * (an activity called directly, as tests and the console do) it does nothing.
 */
export function startPassHeartbeat(): PassHeartbeat {
  let context: Context;
  try {
    context = Context.current();
  } catch {
    return { check: () => undefined, stop: () => undefined };
  }
  context.heartbeat();
  const timer = setInterval(() => context.heartbeat(), EVERY_MS);
  return {
    check() {
      const signal = context.cancellationSignal;
      if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('the activity attempt was cancelled');
    },
    stop: () => clearInterval(timer),
  };
}
