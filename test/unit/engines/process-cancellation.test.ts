import { withProcessCancellation } from '../../../src/engines/process-cancellation';
import { ProcessError, runProcess } from '../../../src/engines/run-process';

// A cancelled activity's engine processes are killed (docs/lifecycle.md#delete): the worker makes
// the activity's cancellation ambient, and runProcess honours it beside its own signal.

describe('runProcess under an ambient cancellation', () => {
  it('kills the process when the cancellation fires, without being handed the signal', async () => {
    const cancel = new AbortController();
    const started = Date.now();
    const run = withProcessCancellation(cancel.signal, () => runProcess('sleep', ['10'], { timeoutMs: 20_000 }));
    setTimeout(() => cancel.abort(new Error('cancelled')), 100);
    const err = await run.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProcessError);
    expect((err as ProcessError).message).toContain('aborted');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("starts nothing once cancelled, and still honours the caller's own signal", async () => {
    const cancelled = new AbortController();
    cancelled.abort();
    await expect(withProcessCancellation(cancelled.signal, () => runProcess('true', [], { timeoutMs: 5000 }))).rejects.toThrow('aborted');
    const live = new AbortController();
    const own = new AbortController();
    own.abort();
    await expect(withProcessCancellation(live.signal, () => runProcess('true', [], { timeoutMs: 5000, signal: own.signal }))).rejects.toThrow('aborted');
    await expect(withProcessCancellation(live.signal, () => runProcess('true', [], { timeoutMs: 5000 }))).resolves.toMatchObject({ stderr: '' });
  });

  it('outside any cancellation, runs as before', async () => {
    await expect(runProcess('echo', ['hi'], { timeoutMs: 5000 })).resolves.toMatchObject({ stdout: Buffer.from('hi\n') });
  });
});
