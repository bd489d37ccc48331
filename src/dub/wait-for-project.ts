import { MultiBar, type SingleBar } from 'cli-progress';
import type { Project } from '../client';
import type { DubContext } from './dub-context';

// `--wait`: follows a project until it ends, with one live line per language (status and the
// percent the API reports) on a terminal, or a plain line per change elsewhere. It polls with
// backoff: quickly while things change, slower (up to the API's poll_after_seconds) while not,
// each poll sending the last answer's ETag (If-None-Match), so an unchanged project costs a 304.

export const FINAL_STATUSES = new Set(['completed', 'partially_completed', 'failed']);
const MIN_POLL_MS = 1000;
/** A live view should not go quiet for long, whatever the API suggests. */
const MAX_POLL_MS = 10_000;

interface Row {
  label: string;
  status: string;
  percent: number;
}

function rows(project: Project): Row[] {
  const phase = project.status === 'processing' ? project.progress.phase : project.status;
  const head: Row = { label: 'project', status: phase, percent: project.progress.percent };
  const languages = project.target_locales.map((locale): Row => {
    const language = project.languages.find((l) => l.locale === locale);
    return language ? { label: locale, status: language.status, percent: language.progress.percent } : { label: locale, status: 'waiting', percent: 0 };
  });
  return [head, ...languages];
}

interface View {
  show(project: Project): void;
  stop(): void;
}

function liveView(ctx: DubContext, width: number): View {
  const multi = new MultiBar({ format: '{label} [{bar}] {percentage}% {status}', stream: ctx.out.stream, hideCursor: true, barsize: 30, fps: 5, clearOnComplete: false });
  const bars = new Map<string, SingleBar>();
  return {
    show(project) {
      for (const row of rows(project)) {
        const payload = { label: row.label.padEnd(width), status: row.status };
        const bar = bars.get(row.label);
        if (bar) bar.update(row.percent, payload);
        else bars.set(row.label, multi.create(100, row.percent, payload));
      }
    },
    stop: () => multi.stop(),
  };
}

function plainView(ctx: DubContext): View {
  const last = new Map<string, string>();
  return {
    show(project) {
      for (const row of rows(project)) {
        const text = `${row.status} ${row.percent}%`;
        if (last.get(row.label) !== text) ctx.out.line(`${row.label}: ${text}`);
        last.set(row.label, text);
      }
    },
    stop: () => undefined,
  };
}

const fingerprint = (project: Project) => JSON.stringify(rows(project));

export async function waitForProject(ctx: DubContext, projectId: string, sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms))): Promise<Project> {
  const poll = ctx.client().projectPoller(projectId);
  let project = await poll();
  const width = Math.max(7, ...project.target_locales.map((l) => l.length));
  const view = ctx.out.tty ? liveView(ctx, width) : plainView(ctx);
  let delay = MIN_POLL_MS;
  try {
    for (;;) {
      view.show(project);
      if (FINAL_STATUSES.has(project.status)) return project;
      await sleep(delay);
      const before = fingerprint(project);
      project = await poll();
      const ceiling = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, project.progress.poll_after_seconds * 1000));
      delay = fingerprint(project) === before ? Math.min(ceiling, delay * 2) : MIN_POLL_MS;
    }
  } finally {
    view.stop();
  }
}
