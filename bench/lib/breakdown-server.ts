import Koa from 'koa';
import { parseApiKey, secretMatches } from '../../src/auth/api-key-secret';
import { loadConfig } from '../../src/config';
import { findApiKeyWithWorkspace, touchApiKey } from '../../src/db/api-keys';
import { createDb, createPool } from '../../src/db/create-db';
import { sql } from 'kysely';
import { findProject, findProjectById, type Project, type ProjectLanguage } from '../../src/db/projects';
import type { Upload } from '../../src/db/uploads';
import { loadProjectView } from '../../src/api/projects/load-project-view';
import { presentProject, type DeliverableRef } from '../../src/project-view/project-presenter';
import { buildTransferBlock } from '../../src/api/uploads/transfer-block';
import { createStorage } from '../../src/storage/create-storage';
import type { AppDeps } from '../../src/api/app-deps';
import { UrlSigner } from '../../src/storage/url-signer';
import { serveUntilSignalled } from './serve';

// For `npm run bench:api -- --profile`: the work of GET /v1/dubbing/projects/{id} added one
// piece at a time, each level on plain Koa (no router, no middleware stack), using the very
// functions the real route calls, with the real app's pool size. The gap between two levels is
// what that piece costs; the gap between the last level and the real API is the middleware
// stack (request id, error handler, JSON body gate, router, ajv query validation, permission).
//
//   /L1/<id>  Kysely findProjectById                      (vs bare pg: Kysely and type parsing)
//   /L2/<id>  + authenticate's key lookup + hash check      (findApiKeyWithWorkspace)
//   /L3/<id>  + touchApiKey                                 (an UPDATE that matches no row)
//   /L4/<id>  + findProject scoped + loadProjectView without the transfer block
//             (findProjectView: one named statement, the open upload's parts included)
//   /L5/<id>  + the transfer block (one HMAC-signed URL per part): the whole handler
//
// and prototypes of changes (measured here, not made in src/):
//
//   /S0/<id>  L5 with touchApiKey sent at most once a minute per key per process
//   /S1/<id>  S0 with the key row also cached in process for 30 s
//   /S2/<id>  S1 with the project, everything it shows and the open upload's parts in ONE
//             raw statement (json_agg subqueries), then the same presentProject + transfer block

const config = loadConfig();
const pool = createPool({ url: config.database.url!, poolMax: config.database.poolMax, applicationName: 'bench-breakdown' });
const db = createDb(pool);
const deps = { config, db, pool, urlSigner: UrlSigner.fromConfig(config), uploads: createStorage(config).uploads } as unknown as AppDeps;
const PATH = /^\/([LS])([0-5])\/([0-9a-f-]{36})$/;

async function authenticateLike(authorization: string): Promise<{ keyId: string; workspaceId: string }> {
  const key = authorization.replace(/^Bearer\s+/i, '').trim();
  const parsed = parseApiKey(key);
  const row = parsed ? await findApiKeyWithWorkspace(db, parsed.keyId) : undefined;
  if (!parsed || !row?.workspace_id || !secretMatches(parsed.secret, row.secret_sha256) || row.revoked_at !== null) throw new Error('bad key');
  return { keyId: row.id, workspaceId: row.workspace_id };
}

type KeyRow = NonNullable<Awaited<ReturnType<typeof findApiKeyWithWorkspace>>>;
const keyCache = new Map<string, { row: KeyRow; at: number }>();
const lastTouch = new Map<string, number>();
const KEY_TTL_MS = 30_000;
const TOUCH_EVERY_MS = 60_000;

/** S*: authenticate with the touch throttled in process and (cache) the key row cached too. */
async function authenticateCached(authorization: string, cache: boolean): Promise<{ keyId: string; workspaceId: string }> {
  const parsed = parseApiKey(authorization.replace(/^Bearer\s+/i, '').trim());
  if (!parsed) throw new Error('bad key');
  const now = Date.now();
  let cached = cache ? keyCache.get(parsed.keyId) : undefined;
  if (!cached || now - cached.at > KEY_TTL_MS) {
    const row = await findApiKeyWithWorkspace(db, parsed.keyId);
    if (!row) throw new Error('bad key');
    cached = { row, at: now };
    keyCache.set(parsed.keyId, cached);
  }
  const { row } = cached;
  if (!row.workspace_id || !secretMatches(parsed.secret, row.secret_sha256) || row.revoked_at !== null) throw new Error('bad key');
  if (now - (lastTouch.get(row.id) ?? 0) > TOUCH_EVERY_MS) {
    lastTouch.set(row.id, now);
    await touchApiKey(db, row.id);
  }
  return { keyId: row.id, workspaceId: row.workspace_id };
}

type ViewRow = Project & { languages_json: any[]; upload_json: any | null; parts_json: { part_number: number; etag: string }[]; deliverables_json: DeliverableRef[] };

/** S2: the project and all loadProjectView reads in one round trip. */
async function loadViewInOneStatement(workspaceId: string, projectId: string, includeTransfer: boolean) {
  const { rows } = await sql<ViewRow>`
    select p.*,
      coalesce((select json_agg(to_jsonb(l) - 'translated_segments' order by l.created_at, l.locale)
                from project_languages l where l.project_id = p.id), '[]') as languages_json,
      (select to_jsonb(u) from uploads u where u.project_id = p.id) as upload_json,
      coalesce((select json_agg(json_build_object('part_number', up.part_number, 'etag', up.etag) order by up.part_number)
                from upload_parts up join uploads u on u.id = up.upload_id where u.project_id = p.id), '[]') as parts_json,
      coalesce((select json_agg(json_build_object('locale', d.locale, 'type', d.type, 'format', d.format) order by d.locale, d.type, d.format)
                from deliverables d where d.project_id = p.id), '[]') as deliverables_json
    from projects p where p.workspace_id = ${workspaceId} and p.id = ${projectId}`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const { languages_json: languagesJson, upload_json: uploadJson, parts_json: parts, deliverables_json: deliverables, ...project } = row;
  const date = (v: string | null) => (v === null ? null : new Date(v));
  const languages = languagesJson.map((l) => ({ ...l, created_at: date(l.created_at), updated_at: date(l.updated_at), completed_at: date(l.completed_at), translated_segments: null })) as ProjectLanguage[];
  const upload = uploadJson ? ({ ...uploadJson, expires_at: new Date(uploadJson.expires_at), completed_at: date(uploadJson.completed_at), created_at: new Date(uploadJson.created_at) } as Upload) : undefined;
  const transfer = project.status === 'awaiting_upload' && upload && includeTransfer
    ? await buildTransferBlock({ upload, parts, uploads: deps.uploads })
    : undefined;
  return presentProject(project as Project, {
    publicBaseUrl: config.http.publicBaseUrl,
    languages,
    deliverables,
    uploadProgress: upload ? { received: parts.length, total: upload.part_count } : undefined,
    transfer: transfer as Record<string, unknown> | undefined,
  });
}

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
  const level = Number(match[2]);
  const projectId = match[3]!;
  if (match[1] === 'S') {
    const auth = await authenticateCached(ctx.get('authorization'), level >= 1);
    const data = level <= 1
      ? await (async () => {
          const project = await findProject(db, auth.workspaceId, projectId);
          return project ? loadProjectView(deps, project, { includeTransfer: true }) : undefined;
        })()
      : await loadViewInOneStatement(auth.workspaceId, projectId, true);
    if (!data) {
      ctx.status = 404;
      return;
    }
    ctx.body = { data };
    return;
  }
  if (level === 1) {
    ctx.body = { data: await findProjectById(db, projectId) };
    return;
  }
  const auth = await authenticateLike(ctx.get('authorization'));
  if (level >= 3) await touchApiKey(db, auth.keyId);
  if (level === 2 || level === 3) {
    ctx.body = { data: await findProject(db, auth.workspaceId, projectId) };
    return;
  }
  const project = await findProject(db, auth.workspaceId, projectId);
  if (!project) {
    ctx.status = 404;
    return;
  }
  ctx.body = { data: await loadProjectView(deps, project, { includeTransfer: level === 5 }) };
});

serveUntilSignalled(app, config.http.port, () => db.destroy());
