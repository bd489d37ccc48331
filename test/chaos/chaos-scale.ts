// How much work each chaos scenario puts through the stack while its fault strikes. The short
// form (inside `make test`) is one project of a short clip; `npm run chaos` sets CHAOS_PROJECTS
// and CHAOS_CLIP_SECONDS higher for the long form of the very same files.

function positiveInt(name: string, fallback: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`${name} must be an integer from 1 to ${max}, got ${raw}`);
  return value;
}

export const CHAOS_PROJECTS = positiveInt('CHAOS_PROJECTS', 1, 20);
export const CHAOS_CLIP_SECONDS = positiveInt('CHAOS_CLIP_SECONDS', 3, 60);
/** Every scenario's bound on one project's run, the fault's recovery included; scales with the load. */
export const CHAOS_PROJECT_TIMEOUT_MS = 150_000 + CHAOS_PROJECTS * CHAOS_CLIP_SECONDS * 6_000;
/** jest's timeout for a whole scenario. */
export const CHAOS_TEST_TIMEOUT_MS = 2 * CHAOS_PROJECT_TIMEOUT_MS + 60_000;
