import fc from 'fast-check';
import { operationsFor } from '../../src/api/openapi/operations';
import { takeContractViolations } from '../helpers/response-contract';
import { startTestApi, type TestApi } from '../helpers/test-api';
import { buildFuzzWorld, type FuzzWorld } from './fuzz-world';
import { requestArbitrary, type FuzzRequest } from './route-requests';
import { sendRaw, type RawResponse } from './send-raw';
import { tenantRowDigest } from './tenant-rows';

// Property-based fuzzing of every route in the OpenAPI operation list (docs/fuzzing.md). For each
// operation, generated requests (valid, near-valid, hostile) go to the real app, one at a time:
//   1. no answer is a 5xx;
//   2. every 4xx is JSON carrying {"error": {type, code, message, request_id, param?}};
//   3. a request answered 4xx changed no row of the fuzzed workspaces (ledger included);
//   4. every answer matches the OpenAPI document (the response-contract middleware).
// FUZZ_RUNS sets the runs per operation, FUZZ_SEED (and FUZZ_PATH) replay a failure.

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : (Date.now() ^ Math.floor(Math.random() * 2 ** 31)) | 0;
const PATH = process.env.FUZZ_PATH;
/** A ceiling, not an assertion: room for the runs and a shrink on a loaded machine. */
const OPERATION_TIMEOUT_MS = Math.max(60_000, RUNS * 600);

let api: TestApi;
let world: FuzzWorld;
const statuses = new Map<string, Map<number, number>>();

beforeAll(async () => {
  // Printed first, so even a run that dies mid-way can be replayed.
  console.log(`route fuzz: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}${PATH ? ` FUZZ_PATH=${PATH}` : ''}`);
  api = await startTestApi();
  world = await buildFuzzWorld(api);
});
afterAll(async () => {
  const lines = [...statuses].map(
    ([route, counts]) =>
      `  ${route}: ${[...counts]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')}`,
  );
  console.log(`route fuzz (seed ${SEED}) statuses:\n${lines.join('\n')}`);
  await api?.close();
});

function describeRequest(req: FuzzRequest): string {
  const body = req.body === undefined ? '' : ` body(${req.body.length}): ${String(req.body).slice(0, 300)}`;
  return `${req.method} ${req.path.slice(0, 300)} headers=${JSON.stringify(req.headers).slice(0, 300)}${body}`;
}

function assertErrorBody(res: RawResponse, where: string): void {
  const contentType = String(res.headers['content-type'] ?? '');
  if (!contentType.startsWith('application/json')) throw new Error(`${where}: ${res.status} with content-type "${contentType}": ${res.text.slice(0, 200)}`);
  const body = JSON.parse(res.text) as { error?: Record<string, unknown> };
  const error = body.error;
  const wellFormed =
    Object.keys(body).length === 1 &&
    error !== undefined &&
    ['type', 'code', 'message', 'request_id'].every((field) => typeof error[field] === 'string' && error[field] !== '') &&
    (error.param === undefined || typeof error.param === 'string') &&
    error.request_id === res.headers['x-request-id'];
  if (!wellFormed) throw new Error(`${where}: ${res.status} without a well-formed error body: ${res.text.slice(0, 300)}`);
}

describe('route fuzz: every operation of the OpenAPI document', () => {
  it.each(operationsFor('local').map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    '%s: no 5xx, 4xx carry the error body and write nothing',
    async (route, operation) => {
      const counts = new Map<number, number>();
      statuses.set(route, counts);
      takeContractViolations(); // what the world's setup requests left is not this property's
      await fc.assert(
        fc.asyncProperty(requestArbitrary(world, operation), async (req) => {
          const before = await tenantRowDigest(api.db, world.workspaceIds);
          const res = await sendRaw(api.baseUrl, req);
          counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
          const where = describeRequest(req);
          if (res.status >= 500 || res.status < 200) throw new Error(`${where}: answered ${res.status}: ${res.text.slice(0, 300)}`);
          const violations = takeContractViolations();
          if (violations.length) throw new Error(`${where}: broke the OpenAPI contract: ${violations.map((v) => `${v.status} ${v.problem}`).join('; ')}`);
          if (res.status < 400) return;
          assertErrorBody(res, where);
          const after = await tenantRowDigest(api.db, world.workspaceIds);
          const changed = Object.keys(before).filter((table) => before[table] !== after[table]);
          if (changed.length) throw new Error(`${where}: answered ${res.status} ${res.text.slice(0, 200)} but changed rows of ${changed.join(', ')}`);
        }),
        { numRuns: RUNS, seed: SEED, ...(PATH ? { path: PATH } : {}) },
      );
    },
    OPERATION_TIMEOUT_MS,
  );
});
