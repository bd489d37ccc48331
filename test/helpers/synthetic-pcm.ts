// Synthetic 16 kHz PCM for the pause finder and chunk planner: exact sounds and gaps, no engine.

const RATE = 16000;

/** Synthetic PCM: each part is a tone (440 Hz), white noise, or silence, for `seconds`. */
export function pcm(parts: { kind: 'tone' | 'noise' | 'silence'; seconds: number; level?: number }[]): Int16Array {
  const total = parts.reduce((n, p) => n + Math.round(p.seconds * RATE), 0);
  const out = new Int16Array(total);
  let at = 0;
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  for (const part of parts) {
    const n = Math.round(part.seconds * RATE);
    const level = (part.level ?? 0.3) * 32767;
    for (let i = 0; i < n; i++) {
      out[at + i] = part.kind === 'tone' ? Math.round(level * Math.sin((2 * Math.PI * 440 * i) / RATE)) : part.kind === 'noise' ? Math.round(level * random()) : 0;
    }
    at += n;
  }
  return out;
}
