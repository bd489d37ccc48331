import { Gauge } from 'prom-client';
import type { Db } from '../db/create-db';
import { countLanguagesByStatus, countProjectsByStatus } from '../db/project-sweeps';

// Projects and languages by status, read from PostgreSQL when scraped: the whole fleet's view,
// the same from every API process (aggregate with max(), not sum()). The counts use the status
// indexes (migration 0019) and are read at most every `refreshMs` per process (15 s by default),
// so scrapes from several Prometheus servers cost one count.

/** Runs `read` at most every `refreshMs`; scrapes in between get the last result. */
function throttled<T>(refreshMs: number, read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!last || Date.now() - last.at >= refreshMs) {
      const value = read();
      last = { at: Date.now(), value };
      value.catch(() => (last = undefined));
    }
    return last.value;
  };
}

export function registerStatusGauges(db: Db, refreshMs = 15_000): void {
  const projects = throttled(refreshMs, () => countProjectsByStatus(db));
  const languages = throttled(refreshMs, () => countLanguagesByStatus(db));
  new Gauge({
    name: 'dubbing_projects',
    help: 'Projects by status (fleet-wide, read from the database at scrape time).',
    labelNames: ['status'] as const,
    async collect() {
      const rows = await projects();
      this.reset();
      for (const row of rows) this.set({ status: row.status }, row.count);
    },
  });
  new Gauge({
    name: 'dubbing_project_languages',
    help: 'Target languages by status (fleet-wide, read from the database at scrape time).',
    labelNames: ['status'] as const,
    async collect() {
      const rows = await languages();
      this.reset();
      for (const row of rows) this.set({ status: row.status }, row.count);
    },
  });
}
