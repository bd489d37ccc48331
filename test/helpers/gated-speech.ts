import path from 'node:path';
import { Context } from '@temporalio/activity';
import { createLocalEngines, type EngineCallOptions, type SpeechSynthesizer } from '../../src/engines';

/** Whether the activity this runs in was cancelled (false outside one). */
function activityCancelled(): boolean {
  try {
    return Context.current().cancellationSignal.aborted;
  } catch {
    return false;
  }
}

/**
 * The real synthesizer, except that a locale's dub step waits while `isClosed()` (up to 2 min,
 * heartbeating) once `shouldWait()` says so: tests use it to catch a language mid-dub. A dub's
 * clips live under a `dub-<locale>-` work directory, which is how the locale is recognized.
 * Like a real engine, it stops waiting when its activity is cancelled, unless `ignoresCancel`
 * (a step slow to stop: it goes on until the gate opens).
 */
export function gatedSpeech(locale: string, gate: { shouldWait(): boolean; onReached(): void; isClosed(): boolean; ignoresCancel?: boolean }): SpeechSynthesizer {
  const real = createLocalEngines().tts;
  const wait = async (out: string, options?: EngineCallOptions) => {
    if (!out.includes(`${path.sep}dub-${locale}-`) || !gate.shouldWait()) return;
    gate.onReached();
    for (let waited = 0; gate.isClosed() && waited < 120_000 && (gate.ignoresCancel || !activityCancelled()); waited += 200) {
      options?.onTick?.();
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  return {
    async synthesize(text, voice, out, options) {
      await wait(out, options);
      return real.synthesize(text, voice, out, options);
    },
    async synthesizeBatch(texts, voice, outs, options) {
      if (outs[0] !== undefined) await wait(outs[0], options);
      return real.synthesizeBatch(texts, voice, outs, options);
    },
  };
}

/**
 * `locale`'s dub held at a gate the test opens by hand: `reached` resolves once the dub waits
 * there, `open()` lets it (and every later one) through.
 */
export function heldSpeech(locale: string, options: { ignoresCancel?: boolean } = {}): { speech: SpeechSynthesizer; open(): void; reached: Promise<void> } {
  let opened = false;
  let markReached!: () => void;
  const reached = new Promise<void>((resolve) => {
    markReached = resolve;
  });
  const speech = gatedSpeech(locale, { shouldWait: () => true, onReached: () => markReached(), isClosed: () => !opened, ...options });
  return {
    speech,
    open: () => {
      opened = true;
    },
    reached,
  };
}
