import Koa from 'koa';
import { Pool } from 'pg';
import { serveUntilSignalled } from './serve';

// The baseline for GET /v1/dubbing/youtube/videos: plain Koa and a pg Pool of the same size as
// the real app's, running the same video query on the same table (an exact id alone, else the
// title substring, newest first), answered as JSON. No auth, no channel lookup, no matching projects, no
// validation. Run by bench/youtube.bench.ts as a child process exactly like the real API.

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const port = Number(process.env.PORT ?? 0);
const poolMax = Number(process.env.DATABASE_POOL_MAX ?? 10);
const pool = new Pool({ connectionString: url, max: poolMax, application_name: 'bench-bare-youtube' });
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

const app = new Koa();
app.use(async (ctx) => {
  if (ctx.path === '/healthz') {
    ctx.body = { ok: true };
    return;
  }
  if (ctx.path !== '/videos') {
    ctx.status = 404;
    return;
  }
  const channel = String(ctx.query.channel_id ?? '');
  const query = String(ctx.query.query ?? '');
  const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // An exact video id answers that video alone; anything else (or an id not mirrored) searches titles.
  const exact = VIDEO_ID.test(query) ? (await pool.query('SELECT * FROM youtube_videos WHERE channel_id = $1 AND id = $2', [channel, query])).rows : [];
  const rows = exact.length > 0 ? exact : (await pool.query('SELECT * FROM youtube_videos WHERE channel_id = $1 AND title ILIKE $2 ORDER BY published_at DESC, id DESC LIMIT 20', [channel, pattern])).rows;
  ctx.body = { data: { items: rows } };
});

serveUntilSignalled(app, port, () => pool.end());
