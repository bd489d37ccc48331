import { createLocalEngines, type MediaEngine } from '../../src/engines';

/** The real media engine, recording its calls by name (with their arguments): what a render really ran. */
export function countingMedia(): { media: MediaEngine; calls: { name: string; args: unknown[] }[] } {
  const real = createLocalEngines().media;
  const calls: { name: string; args: unknown[] }[] = [];
  const media = new Proxy(real, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push({ name: String(prop), args });
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { media, calls };
}
