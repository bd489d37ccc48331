import { ConfigError, loadConfig } from '../../src/config';

/** What loadConfig reports wrong with `env` (every problem at once), or [] when it loads. */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}
