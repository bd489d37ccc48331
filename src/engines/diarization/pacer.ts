import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

// The diarizer computes in the worker's own thread, not in a child process, so its long loops
// give the event loop a turn every few tens of milliseconds (the worker keeps polling and
// heartbeating other activities), call the caller's heartbeat now and then, and stop at the
// call's deadline like an engine process would be killed at its timeout.

const SLICE_MS = 40;
const TICK_MS = 2000;

export class DiarizationTimeoutError extends Error {
  constructor(ms: number) {
    super(`speaker diarization did not finish within ${ms} ms`);
    this.name = 'DiarizationTimeoutError';
  }
}

export class Pacer {
  private readonly started = performance.now();
  private sliceStarted = this.started;
  private lastTick = this.started;

  constructor(
    private readonly onTick: (() => void) | undefined,
    private readonly timeoutMs: number,
  ) {}

  /** Cheap to call in an inner loop: does something only once a slice of work has passed. */
  async breathe(): Promise<void> {
    const now = performance.now();
    if (now - this.sliceStarted < SLICE_MS) return;
    if (now - this.started > this.timeoutMs) throw new DiarizationTimeoutError(this.timeoutMs);
    if (this.onTick && now - this.lastTick >= TICK_MS) {
      this.lastTick = now;
      this.onTick();
    }
    await yieldToEventLoop();
    this.sliceStarted = performance.now();
  }
}
