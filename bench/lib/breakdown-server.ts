import Koa from 'koa';
import { loadConfig } from '../../src/config';
import { createDb, createPool } from '../../src/db/create-db';
import { PROJECT_VIEW_STATEMENT } from '../../src/db/project-view-query';
import { loadOwnProjectView, presentProjectView } from '../../src/api/projects/load-project-view';
import type { AppDeps } from '../../src/api/app-deps';
import { createStorage } from '../../src/storage/create-storage';
import { serveUntilSignalled } from './serve';

// For `npm run bench:api -- --profile`: the work of GET /v1/dubbing/projects/{id} rebuilt on
// plain Koa (no router, no middleware, no authentication: the workspace comes in the path) with
// the very statement and functions the route runs, on a pool of the real app's size. Each level
// adds one piece; the gap from the last level to the real API is what the API does around the
// handler (key check, rate limit, request id, log line, metrics, router, query validation).
//
//   /V/<workspace>/<id>  pg alone: the API's view statement by name, its row answered as JSON
//   /P/<workspace>/<id>  + findProjectView and presentProjectView (what the route answers, no transfer block)
//   /T/<workspace>/<id>  + the transfer block (one HMAC-signed URL per part): the whole handler

const config = loadConfig();
const pool = createPool({ url: config.database.url!, poolMax: config.database.poolMax, applicationName: 'bench-breakdown' });
const deps = { config, pool, db: createDb(pool), uploads: createStorage(config).uploads } as unknown as AppDeps;
const PATH = /^\/([VPT])\/([0-9a-f-]{36})\/([0-9a-f-]{36})$/;

const app = new Koa();
app.use(async (ctx) => {
  if (ctx.path === '/healthz') {
    ctx.body = { ok: true };
    return;
  }
  const match = PATH.exec(ctx.path);
  if (!match) {
    ctx.status = 404;
    return;
  }
  const [, level, workspaceId, projectId] = match as unknown as [string, 'V' | 'P' | 'T', string, string];
  if (level === 'V') {
    const { rows } = await pool.query({ ...PROJECT_VIEW_STATEMENT, values: [workspaceId, projectId] });
    ctx.body = { data: rows[0] };
    return;
  }
  const view = await loadOwnProjectView(deps, { workspaceId } as Parameters<typeof loadOwnProjectView>[1], projectId);
  ctx.body = { data: await presentProjectView(deps, view, { includeTransfer: level === 'T' }) };
});

serveUntilSignalled(app, config.http.port, () => pool.end());
