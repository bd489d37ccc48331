import { currentCancellation, withProcessCancellation } from '../process-cancellation';
import { ProcessError } from '../run-process';

// The languages of one project are dubbed side by side, and their routes often begin with the
// same step on the same text: es_es (eng-cat → cat-spa), ca_es (eng-cat) and pt_pt (eng-cat →
// cat-por) all start with eng-cat on the project's transcript. Calls of the same step on the same
// input that run at the same time on one worker share one run (docs/design.md#shared-translation-steps).
// Only while it runs: nothing is kept afterwards, so no result can outlive the text it came from.

/** How often a caller waiting on another caller's run heartbeats (run-process.ts ticks as often). */
const TICK_MS = 5000;

class SharedRun<T> {
  readonly result: Promise<T>;
  private readonly cancellation = new AbortController();
  private callers = 0;
  private cancelled = 0;
  /** A caller outside any activity cannot be cancelled, so neither can the run. */
  private uncancellable = false;

  constructor(start: () => Promise<T>, onAbandoned: () => void) {
    // The run belongs to no single caller: it is cancelled only when every caller is.
    this.result = withProcessCancellation(this.cancellation.signal, start);
    this.cancellation.signal.addEventListener('abort', onAbandoned, { once: true });
  }

  /** One caller's wait: its own heartbeat, and its own cancellation ends its wait, not the run. */
  async wait(onTick: (() => void) | undefined): Promise<T> {
    const signal = currentCancellation();
    this.callers++;
    if (!signal) this.uncancellable = true;
    else if (signal.aborted) this.callerCancelled();
    else signal.addEventListener('abort', () => this.callerCancelled(), { once: true });
    const ticker = onTick ? setInterval(onTick, TICK_MS) : undefined;
    try {
      return await (signal ? Promise.race([this.result, aborted<T>(signal)]) : this.result);
    } finally {
      if (ticker) clearInterval(ticker);
    }
  }

  private callerCancelled(): void {
    this.cancelled++;
    if (!this.uncancellable && this.cancelled === this.callers) this.cancellation.abort();
  }
}

export class SharedSteps<T> {
  private readonly running = new Map<string, SharedRun<T>>();

  /**
   * `start`'s result, or that of the identical call (same `key`) already running. `start` runs
   * without its caller's heartbeat and cancellation: each caller passes its heartbeat as `onTick`.
   */
  run(key: string, start: () => Promise<T>, onTick?: () => void): Promise<T> {
    let shared = this.running.get(key);
    if (!shared) {
      const created = new SharedRun(start, () => this.forget(key, created));
      created.result.then(
        () => this.forget(key, created),
        () => this.forget(key, created),
      );
      this.running.set(key, created);
      shared = created;
    }
    return shared.wait(onTick);
  }

  private forget(key: string, run: SharedRun<T>): void {
    // A run every caller left is killed, and a later call starts its own rather than joining it.
    if (this.running.get(key) === run) this.running.delete(key);
  }
}

function aborted<T>(signal: AbortSignal): Promise<T> {
  return new Promise<T>((_, reject) => {
    const fail = () => reject(new ProcessError('apertium aborted: the call was cancelled', 'apertium', null, '', false, false));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}
