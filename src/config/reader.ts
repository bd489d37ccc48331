// Reads one environment variable at a time and keeps going on a bad value: each reader notes the
// problem and returns the default, so loadConfig reports every problem at once and an operator
// fixes a bad deployment in one pass, not one restart each.

export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  string(name: string, fallback: string): string {
    const raw = this.env[name];
    return raw === undefined || raw === '' ? fallback : raw;
  }

  optional(name: string): string | null {
    const raw = this.env[name];
    return raw === undefined || raw === '' ? null : raw;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
    if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
    this.problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  }

  /** An optional value that must match `pattern`, described as `shape` in the problem. */
  matching(name: string, pattern: RegExp, shape: string): string | null {
    const raw = this.optional(name);
    if (raw !== null && !pattern.test(raw)) {
      this.problems.push(`${name} must be ${shape} (got "${raw}")`);
      return null;
    }
    return raw;
  }

  /** A comma-separated list; empty items are dropped. Null when unset. */
  list(name: string, pattern: RegExp): string[] | null {
    const raw = this.optional(name);
    if (raw === null) return null;
    const items = raw
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    const bad = items.filter((item) => !pattern.test(item));
    if (bad.length > 0) this.problems.push(`${name} has invalid entries: ${bad.join(', ')}`);
    return items.filter((item) => pattern.test(item));
  }

  url(name: string, fallback: string | null, protocols: string[]): string | null {
    const raw = this.optional(name);
    if (raw === null) return fallback;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
      return raw.replace(/\/$/, '');
    } catch {
      this.problems.push(`${name} must be a URL using ${protocols.join(' or ')} (got "${raw}")`);
      return fallback;
    }
  }
}
