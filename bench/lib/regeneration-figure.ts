import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Db } from '../../src/db/create-db';
import { send } from './load';
import { treeCpuMsOf } from './proc';
import { fmt, formatTable } from './stats';

// The regeneration figure of bench:pipeline (issue 28, docs/editing.md#regenerate): on a dubbed
// project, edit one segment through the API, commit a regeneration, and time it from the
// regenerate request to the new revision being downloadable (GET …/download of the VTT shows
// the new words), with the CPU the worker and its engine processes spent on it. Goal: ≤ 3 s for
// a 10-minute project, and that CPU flat from a 1-minute project to a 10-minute one.

export const REGENERATION_GOAL_MS = 3000;
/** "Flat": the longest project's regeneration CPU at most this much above the shortest's. */
export const REGENERATION_FLAT_TOLERANCE = 1.5;

/** A translated line rewritten; a source sentence rewritten (translated again); then another one, the editor's next edit. */
export type Edit = 'line' | 'source' | 'next source';

/**
 * Whether the edit found its route's apertium pipelines started (docs/design.md#warm-translation):
 * warm within TRANSLATOR_WARM_SECONDS of the last edit that translated. A line edit translates nothing.
 */
export type TranslatorState = 'cold' | 'warm' | 'none';

export interface RegenerationFigure {
  clipSeconds: number;
  edit: Edit;
  translator: TranslatorState;
  /** Lines of the language (its segments). */
  lines: number;
  wallMs: number;
  /** Worker tree CPU (Node + engines) from the request to the regeneration's row completed. */
  workerCpuMs: number;
  /** The worker's own stage timings for it ('dub spliced' or 'dub rendered'). */
  stage: Record<string, unknown> | undefined;
}

export interface RegenerationContext {
  baseUrl: string;
  agent: http.Agent;
  authorization: string;
  workerPid: number;
  workerLog: string;
  db: Db;
}

async function call(ctx: RegenerationContext, method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const res = await send(ctx.agent, {
    url: `${ctx.baseUrl}${url}`,
    method,
    headers: { authorization: ctx.authorization, ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = res.body.toString('utf8');
  if (res.status >= 300) throw new Error(`${method} ${url} → ${res.status}: ${text.slice(0, 400)}`);
  return { status: res.status, text };
}

/** One edit and its regeneration, timed. */
export async function measureRegeneration(
  ctx: RegenerationContext,
  input: { projectId: string; locale: string; clipSeconds: number; edit: Edit; translator: TranslatorState; run: number },
): Promise<RegenerationFigure> {
  const { projectId, locale } = input;
  const base = `/v1/dubbing/projects/${projectId}`;
  const segments = JSON.parse((await call(ctx, 'GET', `${base}/languages/${locale}/segments`)).text).data.segments as { id: string; source_segment_id: string | null }[];
  // The middle line; for a source edit the one after it (an edited line stays as a person wrote
  // it), and the one after that for the next.
  const target = segments[Math.floor(segments.length / 2) + { line: 0, source: 1, 'next source': 2 }[input.edit]]!;
  const vttUrl = `${base}/download?locale=${locale}&type=subtitles&format=vtt`;
  const vttBefore = (await call(ctx, 'GET', vttUrl)).text;
  // A line rewritten by a person (spoken again), or its source sentence (translated and spoken again).
  const words = `Esta es la frase nueva numero ${input.run} de la prueba`;
  if (input.edit === 'line') await call(ctx, 'PATCH', `${base}/languages/${locale}/segments/${target.id}`, { text: words });
  else await call(ctx, 'PATCH', `${base}/transcript/segments/${target.source_segment_id}`, { text: `This is new sentence number ${input.run} of the test.` });
  // A caption may break the line in two (at most 42 characters a line: src/publish/caption-layout.ts).
  const isNew = (vtt: string) => (input.edit === 'line' ? vtt.replace(/\s+/g, ' ').includes(words) : vtt !== vttBefore);

  const regenerationsBefore = await ctx.db.selectFrom('language_regenerations').select('id').where('project_id', '=', projectId).execute();
  const cpuBefore = treeCpuMsOf(ctx.workerPid);
  const t0 = performance.now();
  const answer = JSON.parse((await call(ctx, 'POST', `${base}/languages/${locale}/regenerate`, { max_billable_seconds: 600, preview_only: false }, { 'idempotency-key': randomUUID() })).text);
  if (answer.data.regeneration.segments !== 1) throw new Error(`the regeneration changes ${answer.data.regeneration.segments} segments, not 1`);
  let wallMs = Number.NaN;
  for (let i = 0; i < 20 * 600; i++) {
    if (isNew((await call(ctx, 'GET', vttUrl).catch(() => ({ text: '' }))).text)) {
      wallMs = performance.now() - t0;
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!Number.isFinite(wallMs)) throw new Error('the new revision never became downloadable');
  // The workflow's last steps (the webhook event) belong to it too: CPU until its row completed.
  for (let i = 0; i < 20 * 60; i++) {
    const rows = await ctx.db.selectFrom('language_regenerations').select(['id', 'status']).where('project_id', '=', projectId).execute();
    const row = rows.find((r) => !regenerationsBefore.some((b) => b.id === r.id));
    if (row && row.status !== 'running') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 300));
  const workerCpuMs = treeCpuMsOf(ctx.workerPid) - cpuBefore;
  return { clipSeconds: input.clipSeconds, edit: input.edit, translator: input.translator, lines: segments.length, wallMs, workerCpuMs, stage: lastStageLine(ctx.workerLog) };
}

function lastStageLine(logFile: string): Record<string, unknown> | undefined {
  const lines = readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{') && (l.includes('"dub spliced"') || l.includes('"dub rendered"')));
  const last = lines.at(-1);
  return last ? (JSON.parse(last) as Record<string, unknown>) : undefined;
}

/** Prints the figures beside the goals; true when they are met. */
export function reportRegenerations(figures: RegenerationFigure[]): boolean {
  if (figures.length === 0) return true;
  const s = (ms: number) => fmt(ms / 1000, 2);
  const longest = Math.max(...figures.map((f) => f.clipSeconds));
  const shortest = Math.min(...figures.map((f) => f.clipSeconds));
  let pass = true;
  console.log(
    `\nregeneration of one edited segment: regenerate request → the new VTT downloadable (goal ≤ ${s(REGENERATION_GOAL_MS)} s for the longest project; worker CPU flat, ≤ ${REGENERATION_FLAT_TOLERANCE}× the shortest's):`,
  );
  const rows = figures.map((f) => {
    // Flat is judged against the same edit found alike: loading a translator is not the project's length.
    const base = figures.find((b) => b.edit === f.edit && b.translator === f.translator && b.clipSeconds === shortest);
    const ratio = base ? f.workerCpuMs / base.workerCpuMs : Number.NaN;
    const fast = f.clipSeconds !== longest || f.wallMs <= REGENERATION_GOAL_MS;
    const flat = !base || ratio <= REGENERATION_FLAT_TOLERANCE;
    pass &&= fast && flat;
    const how = f.stage?.message === 'dub spliced' ? `spliced ${String(f.stage.splicedSeconds)} s in ${String(f.stage.spans)} span(s)` : 'rendered whole';
    return [
      `${fmt(f.clipSeconds, 0)} s`,
      { line: 'a translated line', source: 'a source sentence', 'next source': 'the next source sentence' }[f.edit],
      f.translator === 'none' ? '' : f.translator,
      String(f.lines),
      s(f.wallMs),
      s(f.workerCpuMs),
      base ? fmt(ratio, 2) : '—',
      how,
      fast && flat ? 'PASS' : 'FAIL',
    ];
  });
  console.log(formatTable(['project', 'edited', 'translator', 'lines', 'wall s', 'worker CPU s', 'CPU vs shortest', 'how', 'result'], rows));
  const keys = ['speechMs', 'mixMs', 'wavMs', 'measureAndMp3Ms', 'mp3Ms', 'storeMs', 'renderAndEncodeMs', 'thumbnailMs', 'videoMs'].filter((k) => figures.some((f) => f.stage && k in f.stage));
  console.log('\nstages inside the render (worker log, ms):');
  console.log(
    formatTable(
      ['project', 'edited', ...keys],
      figures.map((f) => [`${fmt(f.clipSeconds, 0)} s`, f.edit, ...keys.map((k) => (f.stage && k in f.stage ? String(f.stage[k]) : ''))]),
    ),
  );
  return pass;
}
