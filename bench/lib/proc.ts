import { readdirSync, readFileSync } from 'node:fs';

// Linux /proc readings: CPU time and resident memory of a process and its descendants.

/** USER_HZ: /proc reports CPU time in these ticks (100 on every mainstream Linux). */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  pid: number;
  comm: string;
  ppid: number;
  /** user + system CPU, milliseconds. */
  cpuMs: number;
  /** user + system CPU of its children that exited and were waited for, milliseconds. */
  childrenCpuMs: number;
  rssKb: number;
}

const PAGE_KB = 4;

function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone
  }
  // "pid (comm) state ppid ..." — comm may contain spaces and parentheses; split after the last ')'.
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  const comm = text.slice(open + 1, close);
  const fields = text.slice(close + 2).split(' ');
  // fields[0] is state (field 3); utime is field 14, stime 15, rss (pages) 24.
  const at = (field: number) => Number(fields[field - 3]);
  return {
    pid,
    comm,
    ppid: at(4),
    cpuMs: ((at(14) + at(15)) * 1000) / TICKS_PER_SECOND,
    childrenCpuMs: ((at(16) + at(17)) * 1000) / TICKS_PER_SECOND,
    rssKb: at(24) * PAGE_KB,
  };
}

function allStats(): ProcStat[] {
  const stats: ProcStat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = readStat(Number(name));
    if (s) stats.push(s);
  }
  return stats;
}

/** The process and all its live descendants. */
export function processTree(rootPid: number): ProcStat[] {
  const stats = allStats();
  const children = new Map<number, ProcStat[]>();
  for (const s of stats) {
    const list = children.get(s.ppid) ?? [];
    list.push(s);
    children.set(s.ppid, list);
  }
  const root = stats.find((s) => s.pid === rootPid);
  if (!root) return [];
  const out: ProcStat[] = [];
  const queue = [root];
  for (let i = 0; i < queue.length && i < 10_000; i++) {
    const s = queue[i]!;
    out.push(s);
    queue.push(...(children.get(s.pid) ?? []));
  }
  return out;
}

/** CPU milliseconds (user + system) used so far by one process; its reaped children excluded. */
export function cpuMsOf(pid: number): number {
  return readStat(pid)?.cpuMs ?? Number.NaN;
}

/** CPU milliseconds used so far by a process and every descendant, exited ones included. */
export function treeCpuMsOf(pid: number): number {
  // An exited child's time moves into its parent's children time when it is waited for, so
  // summing self + children time over the live tree counts everything once.
  return processTree(pid).reduce((sum, s) => sum + s.cpuMs + s.childrenCpuMs, 0);
}

/** Whole-machine CPU time from /proc/stat, milliseconds summed over all CPUs. */
export function machineCpu(): { busyMs: number; totalMs: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields as [number, number, number, number, number, number, number, number];
  const toMs = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
  return { busyMs: toMs(user + nice + system + irq + softirq + steal), totalMs: toMs(user + nice + system + idle + iowait + irq + softirq + steal) };
}

/**
 * CPU milliseconds per live process whose name is `comm`, keyed by pid: take one before and one
 * after a load and pass both to `cpuMsSince`, so a process that exits meanwhile (an autovacuum
 * worker, a closed connection) does not turn the sum negative.
 */
export function cpuMsByPidOfCommand(comm: string): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const s of allStats()) if (s.comm === comm) byPid.set(s.pid, s.cpuMs);
  return byPid;
}

/** CPU milliseconds the processes of `after` used since `before` (new processes count whole). */
export function cpuMsSince(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** CPU milliseconds used so far by every live process whose name is `comm` (e.g. postgres). */
export function cpuMsOfCommand(comm: string): number {
  let total = 0;
  for (const s of allStats()) if (s.comm === comm) total += s.cpuMs;
  return total;
}

function pssKbOf(pid: number): number {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0; // exited meanwhile
  }
}

/** VmHWM: the kernel's own peak-RSS record for one process, in kB. */
export function peakRssKbOf(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export interface TreeMemoryPeak {
  samples: number;
  /** Largest sum of RSS over the process tree in one sample, kB. */
  peakTreeKb: number;
  /** ms since sampling started when that peak was seen. */
  peakAtMs: number;
  /**
   * Summed PSS (proportional set size: shared pages split between their users) of the tree in
   * that same peak sample, kB: closer to what the tree really occupies than the RSS sum.
   */
  peakTreePssKb: number;
  /** RSS by command name in the peak sample, kB (largest first). */
  peakBreakdown: { comm: string; count: number; rssKb: number }[];
  /** Largest RSS of the root process alone in any sample, kB. */
  peakRootKb: number;
  /** Largest number of processes in the tree in any sample. */
  peakProcesses: number;
}

/**
 * Samples the summed RSS of `rootPid` and its descendants every `intervalMs`. Shared pages
 * (libraries mapped by several processes) are counted once per process, so the sum is an upper
 * bound of real use; a child that lives shorter than the interval can be missed.
 */
export interface CpuPoint {
  atMs: number;
  treeCpuMs: number;
  machineBusyMs: number;
  machineTotalMs: number;
}

export class TreeMemorySampler {
  private timer: NodeJS.Timeout | undefined;
  private started = 0;
  /** Epoch-ms CPU readings of the tree and the machine, one per sample. */
  readonly cpu: CpuPoint[] = [];
  private result: TreeMemoryPeak = { samples: 0, peakTreeKb: 0, peakTreePssKb: 0, peakAtMs: 0, peakBreakdown: [], peakRootKb: 0, peakProcesses: 0 };

  constructor(
    private readonly rootPid: number,
    private readonly intervalMs = 200,
  ) {}

  start(): void {
    this.started = Date.now();
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
  }

  stop(): TreeMemoryPeak {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.sample();
    return this.result;
  }

  private sample(): void {
    const tree = processTree(this.rootPid);
    if (tree.length === 0) return;
    const r = this.result;
    r.samples++;
    const machine = machineCpu();
    this.cpu.push({ atMs: Date.now(), treeCpuMs: tree.reduce((sum, s) => sum + s.cpuMs + s.childrenCpuMs, 0), machineBusyMs: machine.busyMs, machineTotalMs: machine.totalMs });
    const total = tree.reduce((sum, s) => sum + s.rssKb, 0);
    r.peakRootKb = Math.max(r.peakRootKb, tree[0]!.rssKb);
    r.peakProcesses = Math.max(r.peakProcesses, tree.length);
    if (total > r.peakTreeKb) {
      r.peakTreeKb = total;
      r.peakAtMs = Date.now() - this.started;
      // smaps_rollup is costly to read, so only for a new peak.
      r.peakTreePssKb = tree.reduce((sum, s) => sum + pssKbOf(s.pid), 0);
      const byComm = new Map<string, { comm: string; count: number; rssKb: number }>();
      for (const s of tree) {
        const entry = byComm.get(s.comm) ?? { comm: s.comm, count: 0, rssKb: 0 };
        entry.count++;
        entry.rssKb += s.rssKb;
        byComm.set(s.comm, entry);
      }
      r.peakBreakdown = [...byComm.values()].sort((a, b) => b.rssKb - a.rssKb);
    }
  }
}

/**
 * CPU between two epoch-ms instants from a sampler's readings (nearest samples outside the
 * window): the tree's CPU seconds, and how busy the whole machine was (share of all CPUs).
 */
export function cpuBetween(points: readonly CpuPoint[], fromMs: number, toMs: number): { treeCpuMs: number; machineBusyShare: number; machineBusyMs: number; wallMs: number } {
  const before = [...points].reverse().find((p) => p.atMs <= fromMs) ?? points[0];
  const after = points.find((p) => p.atMs >= toMs) ?? points[points.length - 1];
  if (!before || !after) return { treeCpuMs: Number.NaN, machineBusyShare: Number.NaN, machineBusyMs: Number.NaN, wallMs: Number.NaN };
  const total = after.machineTotalMs - before.machineTotalMs;
  return {
    treeCpuMs: after.treeCpuMs - before.treeCpuMs,
    machineBusyMs: after.machineBusyMs - before.machineBusyMs,
    machineBusyShare: total > 0 ? (after.machineBusyMs - before.machineBusyMs) / total : Number.NaN,
    wallMs: after.atMs - before.atMs,
  };
}

/** 1-minute load average, to show how busy the machine was around a measurement. */
export function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
}
