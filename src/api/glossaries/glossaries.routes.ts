import Router from '@koa/router';
import type { Context } from 'koa';
import {
  advanceGlossaryVersion,
  deleteGlossary,
  findAnyGlossary,
  findGlossary,
  findGlossaryVersion,
  insertGlossary,
  insertGlossaryVersion,
  isGlossaryVersionPinned,
  listGlossaries,
  newGlossaryId,
  type Glossary,
} from '../../db/glossaries';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { type AuthContext, authenticate, requirePermission, workspaceCaller } from '../middleware/authenticate';
import { idempotency } from '../middleware/idempotency';
import { bodyOf, queryOf, validateBody, validateQuery } from '../middleware/validate';
import { cursorPage, decodeCursor } from '../projects/cursor';
import { createGlossaryBodySchema, emptyQuerySchema, getGlossaryQuerySchema, GLOSSARY_ID, listGlossariesQuerySchema, projectGlossaryBodySchema, updateGlossaryBodySchema } from './glossaries.schema';
import { presentGlossary, presentGlossaryListItem, sameEntries } from './glossary-presenter';
import { deleteProjectGlossary, putProjectGlossary } from './project-glossary';
import { checkGlossarySourceLocale, readGlossaryEntries } from './read-glossary-entries';

/**
 * The workspace's glossaries (docs/glossaries.md): read with `dubbing:read`, changed with
 * `dubbing:write`. Every change of the entries is a new version; earlier ones stay readable
 * (`?version=n`) for the projects that pin them. Another workspace's glossary, a malformed id
 * and a deleted glossary are the same 404.
 */
export function glossariesRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const router = new Router({ prefix: '/v1/glossaries' });
  const auth = authenticate(deps);
  const read = requirePermission('dubbing:read');
  const write = requirePermission('dubbing:write');
  const secret = deps.config.storage.signingSecret;

  const ownGlossary = async (caller: AuthContext, id: string | undefined): Promise<Glossary> => {
    const glossary = GLOSSARY_ID.test(id ?? '') ? await findGlossary(db, caller.workspaceId, id!) : undefined;
    if (!glossary) throw ApiError.notFound('glossary', 'glossary_id');
    return glossary;
  };

  const answerVersion = async (ctx: Context, glossary: Glossary, version: number) => {
    const row = await findGlossaryVersion(db, glossary.id, version);
    if (!row) throw ApiError.notFound('glossary version', 'version');
    ctx.body = { data: presentGlossary(glossary, row) };
  };

  router.post('/', auth, write, validateBody(createGlossaryBodySchema), idempotency(db), async (ctx) => {
    const caller = workspaceCaller(ctx);
    const body = bodyOf(ctx, createGlossaryBodySchema);
    checkGlossarySourceLocale(body.source_locale, deps.capabilities.current());
    const entries = readGlossaryEntries(body.entries, body.source_locale, deps.capabilities.current());
    const name = body.name.trim();
    const [glossary, version] = await db.transaction().execute(async (trx) => {
      const created = await insertGlossary(trx, { id: newGlossaryId(), workspaceId: caller.workspaceId, name, sourceLocale: body.source_locale });
      return [created, await insertGlossaryVersion(trx, { glossaryId: created.id, version: 1, name, entries })] as const;
    });
    ctx.status = 201;
    ctx.body = { data: presentGlossary(glossary, version) };
  });

  router.get('/', auth, read, validateQuery(listGlossariesQuerySchema), async (ctx) => {
    const caller = workspaceCaller(ctx);
    const query = queryOf(ctx, listGlossariesQuerySchema);
    const rows = await listGlossaries(db, { workspaceId: caller.workspaceId, limit: query.limit, beforeSeq: query.cursor ? decodeCursor(secret, query.cursor, caller.workspaceId) : undefined });
    const { items, page } = cursorPage(secret, caller.workspaceId, rows, query.limit);
    ctx.body = { data: items.map(presentGlossaryListItem), page };
  });

  // A deleted glossary is gone for the API, except the versions live projects still pin
  // (docs/glossaries.md#deleting): those stay readable by number, so a project's customer can
  // always see what its dub applies.
  router.get('/:glossary_id', auth, read, validateQuery(getGlossaryQuerySchema), async (ctx) => {
    const caller = workspaceCaller(ctx);
    const { version } = queryOf(ctx, getGlossaryQuerySchema);
    const id = ctx.params.glossary_id;
    const any = GLOSSARY_ID.test(id ?? '') ? await findAnyGlossary(db, caller.workspaceId, id!) : undefined;
    const visible = any && (any.deleted_at === null || (version !== undefined && (await isGlossaryVersionPinned(db, caller.workspaceId, any.id, version))));
    if (!any || !visible) throw ApiError.notFound('glossary', 'glossary_id');
    await answerVersion(ctx, any, version ?? any.version);
  });

  // The next version, unless name and entries are those of the latest: then nothing is written
  // and the latest is the answer, so a retried PUT makes no second version.
  router.put('/:glossary_id', auth, write, validateBody(updateGlossaryBodySchema), async (ctx) => {
    const caller = workspaceCaller(ctx);
    const body = bodyOf(ctx, updateGlossaryBodySchema);
    const glossary = await ownGlossary(caller, ctx.params.glossary_id);
    const entries = readGlossaryEntries(body.entries, glossary.source_locale, deps.capabilities.current());
    const name = body.name?.trim() ?? glossary.name;
    const latest = await findGlossaryVersion(db, glossary.id, glossary.version);
    if (latest && latest.name === name && sameEntries(latest.entries, entries)) {
      ctx.body = { data: presentGlossary(glossary, latest) };
      return;
    }
    const [advanced, version] = await db.transaction().execute(async (trx) => {
      const next = await advanceGlossaryVersion(trx, caller.workspaceId, glossary.id, name);
      if (!next) throw ApiError.notFound('glossary', 'glossary_id');
      return [next, await insertGlossaryVersion(trx, { glossaryId: next.id, version: next.version, name, entries })] as const;
    });
    ctx.body = { data: presentGlossary(advanced, version) };
  });

  // Projects that pin one of its versions keep it (docs/glossaries.md#deleting).
  router.delete('/:glossary_id', auth, write, validateQuery(emptyQuerySchema), async (ctx) => {
    const caller = workspaceCaller(ctx);
    const glossary = await ownGlossary(caller, ctx.params.glossary_id);
    if (!(await deleteGlossary(db, caller.workspaceId, glossary.id))) throw ApiError.notFound('glossary', 'glossary_id');
    ctx.body = { data: { id: glossary.id, object: 'glossary', deleted: true } };
  });

  return router;
}

/** A project's glossary (docs/glossaries.md#pinning): PUT pins a version, DELETE pins none. */
export function projectGlossaryRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/v1/dubbing/projects/:project_id/glossary' });
  const auth = authenticate(deps);
  const write = requirePermission('dubbing:write');
  router.put('/', auth, write, validateBody(projectGlossaryBodySchema), (ctx) => putProjectGlossary(deps, ctx));
  router.delete('/', auth, write, validateQuery(emptyQuerySchema), (ctx) => deleteProjectGlossary(deps, ctx));
  return router;
}
