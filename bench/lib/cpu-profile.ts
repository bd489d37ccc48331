import { readFileSync } from 'node:fs';

// Reads a V8 .cpuprofile (node --cpu-prof) and says where the CPU went: by library, by function,
// and by the innermost src/ function on the stack (which application code caused the work).

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  totalMs: number;
  /** Excluding (idle): time the main thread was really busy. */
  busyMs: number;
  byCategory: { name: string; ms: number }[];
  /** Node-core and native time charged to the nearest library (or src/) frame that called it. */
  byCaller: { name: string; ms: number }[];
  topSelf: { name: string; ms: number }[];
  bySrcFrame: { name: string; ms: number }[];
}

function category(url: string, functionName: string): string | null {
  if (functionName === '(garbage collector)') return 'V8 garbage collector';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)') return 'V8/native (unattributed)';
  if (!url) return null; // a native builtin: charged to its caller's category
  if (/node_modules\/(pg|pg-pool|pg-protocol|pg-types|pg-connection-string|postgres-[a-z-]+)\//.test(url)) return 'pg driver (pg, pg-protocol, pg-types)';
  if (url.includes('node_modules/kysely/')) return 'kysely';
  if (
    /node_modules\/(koa|@koa|koa-compose|http-errors|statuses|accepts|type-is|content-type|cookies|delegates|on-finished|mime-types|negotiator|vary|fresh|encodeurl|escape-html|path-to-regexp|depd)/.test(
      url,
    )
  )
    return 'koa + @koa/router (+ helpers)';
  if (url.includes('node_modules/ajv')) return 'ajv (query validation)';
  if (url.includes('node_modules/@temporalio') || url.includes('node_modules/@grpc')) return 'temporal client';
  if (url.includes('node_modules/')) return 'other node_modules';
  if (url.includes('/src/')) return 'application code (src/)';
  if (url.startsWith('node:') || !url.includes('/')) return 'node core (http, net, streams, timers)';
  return 'other';
}

function shortName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, '')
    .replace(/^.*\/(src|bench)\//, '$1/');
  return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
}

/**
 * @param lastMs when given, only the samples of the profile's last `lastMs` milliseconds count
 * (the load window, leaving out start-up and module loading).
 */
export function summarizeCpuProfile(file: string, options: { top?: number; lastMs?: number } = {}): ProfileSummary {
  const top = options.top ?? 15;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  // Each sample's weight is the time until the next sample.
  const selfMs = new Map<number, number>();
  const timestamps: number[] = [];
  for (let i = 0, t = profile.startTime; i < profile.samples.length; i++) timestamps.push((t += profile.timeDeltas[i] ?? 0));
  const from = options.lastMs !== undefined ? profile.endTime - options.lastMs * 1000 : -Infinity;
  for (let i = 0; i < profile.samples.length; i++) {
    if (timestamps[i]! < from) continue;
    const next = profile.timeDeltas[i + 1] ?? 0;
    const id = profile.samples[i]!;
    selfMs.set(id, (selfMs.get(id) ?? 0) + next / 1000);
  }

  const categoryOf = new Map<number, string>();
  const resolveCategory = (id: number): string => {
    const cached = categoryOf.get(id);
    if (cached) return cached;
    const node = byId.get(id)!;
    let result = category(node.callFrame.url, node.callFrame.functionName);
    if (result === null) {
      const p = parent.get(id);
      result = p !== undefined && byId.get(p)!.callFrame.functionName !== '(root)' ? resolveCategory(p) : 'native (no JS caller)';
    }
    categoryOf.set(id, result);
    return result;
  };
  const srcFrameOf = (id: number): string | null => {
    for (let cur: number | undefined = id, depth = 0; cur !== undefined && depth < 500; cur = parent.get(cur), depth++) {
      const node = byId.get(cur)!;
      if (node.callFrame.url.includes('/src/') && !node.callFrame.url.includes('node_modules/')) return shortName(node);
    }
    return null;
  };

  const callerOf = (id: number): string => {
    for (let cur: number | undefined = id, depth = 0; cur !== undefined && depth < 500; cur = parent.get(cur), depth++) {
      const node = byId.get(cur)!;
      if (node.callFrame.functionName === '(root)') break;
      const cat = category(node.callFrame.url, node.callFrame.functionName);
      if (cat !== null && cat !== 'node core (http, net, streams, timers)') return cat;
    }
    return 'node core, no library on the stack (HTTP parsing, socket reads, timers)';
  };
  const callers = new Map<string, number>();
  const cats = new Map<string, number>();
  const fns = new Map<string, number>();
  const src = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, ms] of selfMs) {
    const node = byId.get(id)!;
    total += ms;
    const cat = resolveCategory(id);
    if (cat === 'idle') {
      idle += ms;
      continue;
    }
    cats.set(cat, (cats.get(cat) ?? 0) + ms);
    const caller = callerOf(id);
    callers.set(caller, (callers.get(caller) ?? 0) + ms);
    const name = shortName(node);
    fns.set(name, (fns.get(name) ?? 0) + ms);
    const frame = srcFrameOf(id) ?? `(no src/ frame on stack: ${cat})`;
    src.set(frame, (src.get(frame) ?? 0) + ms);
  }
  const sorted = (m: Map<string, number>) => [...m.entries()].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
  return { totalMs: total, busyMs: total - idle, byCategory: sorted(cats), byCaller: sorted(callers), topSelf: sorted(fns).slice(0, top), bySrcFrame: sorted(src).slice(0, top) };
}
