/** `--name <number>` from argv, within [min, max], else the fallback; a bad value stops the bench. */
export function numberFlag(argv: string[], name: string, fallback: number, min: number, max: number): number {
  const at = argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(argv[at + 1]);
  if (!Number.isFinite(value) || value < min || value > max) throw new Error(`--${name} must be a number from ${min} to ${max}`);
  return value;
}
