import Koa from 'koa';
import { Pool } from 'pg';
import { serveUntilSignalled } from './serve';

// The baseline for GET /v1/dubbing/youtube/videos: plain Koa and a pg Pool of the same size as
// the real app's, running the same statements the real route runs (src/db/youtube.ts's named
// statements, by name as there, and the text Kysely compiles src/db/youtube-lookups.ts's claim
// to), in the same order, and answering the same JSON. No API key check, rate limit, validation
// or error handling: the workspace comes as a parameter. Run by bench/youtube.bench.ts as a child process
// exactly like the real API; it makes no Data API call (the bench's unknown ids are remembered misses).

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const port = Number(process.env.PORT ?? 0);
const poolMax = Number(process.env.DATABASE_POOL_MAX ?? 10);
const missTtlSeconds = Number(process.env.YOUTUBE_LOOKUP_MISS_TTL_SECONDS ?? 3600);
const perHour = Number(process.env.YOUTUBE_LOOKUPS_PER_HOUR ?? 20);
const pool = new Pool({ connectionString: url, max: poolMax, application_name: 'bench-bare-youtube' });
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

const CHANNEL =
  'select "youtube_channels"."id", "youtube_channels"."title" from "workspace_channels" inner join "youtube_channels" on "youtube_channels"."id" = "workspace_channels"."channel_id" where "workspace_channels"."workspace_id" = $1 and ';
const PRIMARY_CHANNEL = `${CHANNEL}"workspace_channels"."is_primary"`;
const NAMED_CHANNEL = `${CHANNEL}"workspace_channels"."channel_id" = $2`;
const VIDEOS = 'select "id", "title", "duration_seconds", "published_at", "availability" from "youtube_videos" where "channel_id" = $1';
const ORDER = ' order by "published_at" desc, "id" desc limit';
const EXACT = `${VIDEOS} and "id" = $2${ORDER} $3`;
const TITLE = `${VIDEOS} and "title" ilike $2${ORDER} $3`;
const NEWEST = `${VIDEOS}${ORDER} $2`;
const MATCHES =
  'select distinct on ("youtube_video_id") "id", "youtube_video_id", "target_locales", "status", "usage_state" from "projects" where "workspace_id" = $1 and "youtube_video_id" = any($2) order by "youtube_video_id", "seq" desc';
const WINDOW = `date_trunc('hour', now() at time zone 'UTC') at time zone 'UTC'`;
const CLAIM = `
    with miss as (
      select 1 from youtube_lookup_misses
      where video_id = $1
        and looked_up_at > now() - make_interval(secs => $2)
        and owner_channel_id is distinct from $3
    ), past as (
      delete from youtube_lookup_budgets where workspace_id = $4 and window_start < ${WINDOW}
    ), spent as (
      insert into youtube_lookup_budgets as b (workspace_id, window_start, used)
      select $5, ${WINDOW}, 1 where not exists (select 1 from miss) and $6 <> 0
      on conflict (workspace_id, window_start) do update set used = b.used + 1 where b.used < $7
      returning used
    )
    select exists (select 1 from miss) as missed, (select used from spent) as used`;

interface Video {
  id: string;
  title: string;
  duration_seconds: number | null;
  published_at: Date;
  availability: string;
}
interface Match {
  id: string;
  youtube_video_id: string;
  target_locales: string[];
  status: string;
  usage_state: string;
}

const state = (m: Match) => (m.usage_state === 'charged' || m.usage_state === 'refunded' ? 'verified' : m.usage_state === 'pending_validation' && m.status !== 'failed' ? 'pending' : 'failed');

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
  const workspace = String(ctx.query.workspace_id ?? '');
  const named = typeof ctx.query.channel_id === 'string' ? ctx.query.channel_id : undefined;
  const query = typeof ctx.query.query === 'string' ? ctx.query.query : undefined;
  const limit = Number(ctx.query.limit ?? 20);
  const channel = (
    await pool.query<{ id: string; title: string }>(
      named === undefined ? { name: 'primary-channel', text: PRIMARY_CHANNEL, values: [workspace] } : { name: 'named-channel', text: NAMED_CHANNEL, values: [workspace, named] },
    )
  ).rows[0];
  if (!channel) {
    ctx.status = named === undefined ? 200 : 404;
    ctx.body = named === undefined ? { data: { connection_required: true, channel: null, items: [] } } : { error: { type: 'not_found_error' } };
    return;
  }
  const videoId = query !== undefined && VIDEO_ID.test(query) ? query : undefined;
  let videos: Video[] = videoId === undefined ? [] : (await pool.query<Video>({ name: 'exact', text: EXACT, values: [channel.id, videoId, limit] })).rows;
  if (videos.length === 0) {
    videos =
      query === undefined
        ? (await pool.query<Video>({ name: 'newest', text: NEWEST, values: [channel.id, limit] })).rows
        : (await pool.query<Video>({ name: 'title', text: TITLE, values: [channel.id, `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, limit] })).rows;
  }
  if (videoId !== undefined && videos.length === 0) {
    const claim = (await pool.query<{ missed: boolean; used: number | null }>(CLAIM, [videoId, missTtlSeconds, channel.id, workspace, workspace, perHour, perHour])).rows[0]!;
    ctx.set('YouTube-Lookup', claim.missed ? 'remembered_miss' : 'budget_exhausted');
  }
  const matches = new Map<string, Match>();
  if (videos.length > 0) {
    for (const m of (await pool.query<Match>({ name: 'matches', text: MATCHES, values: [workspace, videos.map((v) => v.id)] })).rows) matches.set(m.youtube_video_id, m);
  }
  const items = videos.map((v) => {
    const m = matches.get(v.id);
    return {
      youtube_video_id: v.id,
      title: v.title,
      url: `https://www.youtube.com/watch?v=${v.id}`,
      duration_seconds: v.duration_seconds,
      published_at: v.published_at.toISOString(),
      availability: v.availability,
      ...(m ? { matching_project: { project_id: m.id, state: state(m), target_locales: m.target_locales } } : {}),
    };
  });
  ctx.body = { data: { connection_required: false, channel: { channel_id: channel.id, title: channel.title }, items } };
});

serveUntilSignalled(app, port, () => pool.end());
