import os from 'node:os';
import { loadAverage } from './proc';
import { fmt, fmtInt, formatTable } from './stats';
import type { WorkflowExecutionDescription } from '@temporalio/client';
import type { FixedCountResult } from './load';
import { perRequestUs, POOL_MAX, type CpuSnapshot, type GetRun, type Options } from './api-bench-measures';

// The report of bench/api.bench.ts: the figures against their targets, then CPU and SQL round
// trips per request.

/** Every figure of a bench:api run the report prints. */
export interface ApiBenchFigures {
  options: Options;
  code: string;
  loadBefore: string;
  warm: number;
  real: GetRun;
  conditional: GetRun;
  base: GetRun;
  fleetReal: GetRun;
  fleetBare: GetRun;
  fleetProjects: unknown[];
  fleet: unknown[];
  changes: number;
  creates: FixedCountResult;
  createCpu: CpuSnapshot;
  starts: FixedCountResult;
  startsAfter: FixedCountResult;
  startsAround: number;
  youtubeCreates: FixedCountResult;
  youtubeCpu: CpuSnapshot;
  temporalCpuApi: number;
  temporalCpuYoutube: number;
  temporalCpuBare: number;
  loadgenBare: NodeJS.CpuUsage;
  sqlRealGet: number;
  sqlConditionalGet: number;
  sqlBareGet: number;
  sqlCreate: number;
  created: { body: Buffer };
  createdCount: { n: number };
  described: WorkflowExecutionDescription;
}

/** Prints the report; answers the targets and the ratios held against them. */
export function printReport(figures: ApiBenchFigures) {
  const {
    options,
    code,
    loadBefore,
    warm,
    real,
    conditional,
    base,
    fleetReal,
    fleetBare,
    fleetProjects,
    fleet,
    changes,
    creates,
    createCpu,
    starts,
    startsAfter,
    startsAround,
    youtubeCreates,
    youtubeCpu,
    temporalCpuApi,
    temporalCpuYoutube,
    temporalCpuBare,
    loadgenBare,
    sqlRealGet,
    sqlConditionalGet,
    sqlBareGet,
    sqlCreate,
    created,
    createdCount,
    described,
  } = figures;
  const getTarget = 0.85; // issue 11 raised it from 0.8
  const p99Target = 20;
  const createTarget = 0.7;
  const rpsRatio = real.load.rps / base.load.rps;
  const conditionalRatio = conditional.load.rps / base.load.rps;
  const fleetRatio = fleetReal.load.rps / fleetBare.load.rps;
  const createRatio = creates.perSecond / starts.perSecond;
  // A YouTube create starts its workflow in the request: its figure is reported, not a target,
  // since its cost is the Temporal server's workflow start (docs/benchmarks.md).
  const youtubeRatio = youtubeCreates.perSecond / startsAround;
  const pass = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  const rows = [
    [`GET /v1/dubbing/projects/{id} requests/s (${options.connections} conn)`, fmtInt(real.load.rps), fmtInt(base.load.rps), fmt(rpsRatio, 3), `>= ${getTarget}`, pass(rpsRatio >= getTarget)],
    [
      `GET conditional (If-None-Match, as the dub CLI polls) 304s/s`,
      fmtInt(conditional.load.rps),
      fmtInt(base.load.rps),
      fmt(conditionalRatio, 3),
      `>= ${getTarget}`,
      pass(conditionalRatio >= getTarget),
    ],
    [
      `GET across ${options.tenants} workspaces × ${options.tenantProjects} projects, ${fmtInt(options.changesPerSecond)} changes/s`,
      fmtInt(fleetReal.load.rps),
      fmtInt(fleetBare.load.rps),
      fmt(fleetRatio, 3),
      `>= ${getTarget}`,
      pass(fleetRatio >= getTarget),
    ],
    ['GET across tenants, latency p99 (ms)', fmt(fleetReal.load.latencyMs.p99, 2), fmt(fleetBare.load.latencyMs.p99, 2), fmt(fleetReal.load.latencyMs.p99 / fleetBare.load.latencyMs.p99, 2), '', ''],
    ['GET latency p50 (ms)', fmt(real.load.latencyMs.p50, 2), fmt(base.load.latencyMs.p50, 2), fmt(real.load.latencyMs.p50 / base.load.latencyMs.p50, 2), '', ''],
    [
      'GET latency p99 (ms)',
      fmt(real.load.latencyMs.p99, 2),
      fmt(base.load.latencyMs.p99, 2),
      fmt(real.load.latencyMs.p99 / base.load.latencyMs.p99, 2),
      `< ${p99Target} ms`,
      pass(real.load.latencyMs.p99 < p99Target),
    ],
    [
      `POST create/s vs workflow.start/s (${options.creates}, conc ${options.createConcurrency})`,
      fmt(creates.perSecond, 1),
      fmt(starts.perSecond, 1),
      fmt(createRatio, 3),
      `>= ${createTarget}`,
      pass(createRatio >= createTarget),
    ],
    ['POST latency p50 (ms)', fmt(creates.latencyMs.p50, 1), fmt(starts.latencyMs.p50, 1), fmt(creates.latencyMs.p50 / starts.latencyMs.p50, 2), '', ''],
    ['POST latency p99 (ms)', fmt(creates.latencyMs.p99, 1), fmt(starts.latencyMs.p99, 1), fmt(creates.latencyMs.p99 / starts.latencyMs.p99, 2), '', ''],
    [`POST bare start/s after the YouTube creates`, '', fmt(startsAfter.perSecond, 1), '', '', ''],
    ['POST YouTube create/s (starts workflow) vs start/s before+after', fmt(youtubeCreates.perSecond, 1), fmt(startsAround, 1), fmt(youtubeRatio, 3), 'reported', ''],
  ];
  console.log(`\n== bench:api — ${new Date().toISOString()}, ${os.cpus().length} CPUs, node ${process.version}, pool max ${POOL_MAX}, load average before ${loadBefore}, now ${loadAverage()} ==`);
  console.log(`code under test: ${code}`);
  console.log(
    'project = real API (child process: node --import tsx src/api/server.ts, NODE_ENV=production); bare = bench/lib/bare-koa-server.ts child process (GET) / client.workflow.start in the load generator (POST)',
  );
  console.log(
    `GET: ${options.rounds} round(s) × (${options.warmupMs / 1000} s warm-up + ${options.durationMs / 1000} s measured) per side, ${options.connections} keep-alive connections; POST: after ${warm}+${warm} warm-up\n`,
  );
  console.log(formatTable(['figure', 'project', 'bare', 'ratio', 'target', 'result'], rows));

  const cpuRows = [
    [
      'GET real API',
      fmtInt(real.load.requests),
      fmt(perRequestUs(real.cpu.serverMs, real.load.requests), 0),
      fmt(perRequestUs(real.cpu.postgresMs, real.load.requests), 0),
      '',
      fmt(perRequestUs(real.cpu.loadgenMs, real.load.requests), 0),
      fmt(sqlRealGet, 2),
      String(real.bytes),
    ],
    [
      'GET conditional (304)',
      fmtInt(conditional.load.requests),
      fmt(perRequestUs(conditional.cpu.serverMs, conditional.load.requests), 0),
      fmt(perRequestUs(conditional.cpu.postgresMs, conditional.load.requests), 0),
      '',
      fmt(perRequestUs(conditional.cpu.loadgenMs, conditional.load.requests), 0),
      fmt(sqlConditionalGet, 2),
      '0',
    ],
    [
      'GET across tenants, real API',
      fmtInt(fleetReal.load.requests),
      fmt(perRequestUs(fleetReal.cpu.serverMs, fleetReal.load.requests), 0),
      fmt(perRequestUs(fleetReal.cpu.postgresMs, fleetReal.load.requests), 0),
      '',
      fmt(perRequestUs(fleetReal.cpu.loadgenMs, fleetReal.load.requests), 0),
      '',
      '',
    ],
    [
      'GET across tenants, bare',
      fmtInt(fleetBare.load.requests),
      fmt(perRequestUs(fleetBare.cpu.serverMs, fleetBare.load.requests), 0),
      fmt(perRequestUs(fleetBare.cpu.postgresMs, fleetBare.load.requests), 0),
      '',
      fmt(perRequestUs(fleetBare.cpu.loadgenMs, fleetBare.load.requests), 0),
      '',
      '',
    ],
    [
      'GET bare Koa + pg',
      fmtInt(base.load.requests),
      fmt(perRequestUs(base.cpu.serverMs, base.load.requests), 0),
      fmt(perRequestUs(base.cpu.postgresMs, base.load.requests), 0),
      '',
      fmt(perRequestUs(base.cpu.loadgenMs, base.load.requests), 0),
      fmt(sqlBareGet, 2),
      String(base.bytes),
    ],
    [
      'POST create (real API)',
      fmtInt(creates.total),
      fmt(perRequestUs(createCpu.serverMs, creates.total), 0),
      fmt(perRequestUs(createCpu.postgresMs, creates.total), 0),
      fmt(perRequestUs(temporalCpuApi, creates.total), 0),
      fmt(perRequestUs(createCpu.loadgenMs, creates.total), 0),
      fmt(sqlCreate, 2),
      String(created.body.length),
    ],
    [
      'POST YouTube create (API)',
      fmtInt(youtubeCreates.total),
      fmt(perRequestUs(youtubeCpu.serverMs, youtubeCreates.total), 0),
      fmt(perRequestUs(youtubeCpu.postgresMs, youtubeCreates.total), 0),
      fmt(perRequestUs(temporalCpuYoutube, youtubeCreates.total), 0),
      fmt(perRequestUs(youtubeCpu.loadgenMs, youtubeCreates.total), 0),
      '',
      '',
    ],
    [
      'POST bare workflow.start',
      fmtInt(starts.total),
      '',
      '',
      fmt(perRequestUs(temporalCpuBare, starts.total), 0),
      fmt(perRequestUs((loadgenBare.user + loadgenBare.system) / 1000, starts.total), 0),
      '0',
      '',
    ],
  ];
  console.log(
    "\nper request: CPU in µs (server = the HTTP child; postgres = this database's backends; temporal = the dev server; loadgen = this process), SQL round trips counted through a proxy on fresh servers (the first GET of a key also touches it):",
  );
  console.log(formatTable(['run', 'requests', 'server CPU', 'postgres CPU', 'temporal CPU', 'loadgen CPU', 'SQL round trips', 'resp bytes'], cpuRows));
  console.log(`across tenants: ${fleetProjects.length} projects in ${fleet.length} workspaces; ${changes} changes made during those runs`);
  console.log(`check: ${createdCount.n} projects in the database; newest project's workflow is ${described.status.name} on task queue ${described.taskQueue} (no worker)`);

  return { getTarget, p99Target, createTarget, rpsRatio, conditionalRatio, fleetRatio, createRatio };
}
