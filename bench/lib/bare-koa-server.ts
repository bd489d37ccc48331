import Koa from 'koa';
import { Pool } from 'pg';
import { serveUntilSignalled } from './serve';

// The baseline for GET /v1/dubbing/projects/{id}: plain Koa and a pg Pool of the same size as
// the real app's (DATABASE_POOL_MAX), one primary-key read of the same row, answered as JSON.
// No auth, no router, no validation, no other table. Run by bench/api.bench.ts as a child
// process exactly like the real API (node --import tsx), with DATABASE_URL, PORT and
// DATABASE_POOL_MAX in its environment.

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const port = Number(process.env.PORT ?? 0);
const poolMax = Number(process.env.DATABASE_POOL_MAX ?? 10);

const pool = new Pool({ connectionString: url, max: poolMax, application_name: 'bench-bare-koa' });
const PATH = /^\/projects\/([0-9a-f-]{36})$/;

const app = new Koa();
app.use(async (ctx) => {
  if (ctx.path === '/healthz') {
    ctx.body = { ok: true };
    return;
  }
  const match = PATH.exec(ctx.path);
  if (!match) {
    ctx.status = 404;
    ctx.body = { error: 'not found' };
    return;
  }
  const { rows } = await pool.query('SELECT * FROM projects WHERE id = $1', [match[1]]);
  if (rows.length === 0) {
    ctx.status = 404;
    ctx.body = { error: 'not found' };
    return;
  }
  ctx.body = { data: rows[0] };
});

serveUntilSignalled(app, port, () => pool.end());
