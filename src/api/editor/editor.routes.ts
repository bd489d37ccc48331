import Router from '@koa/router';
import type { Context } from 'koa';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { readEditorAsset, readEditorPage, type EditorFile } from './editor-assets';
import { editorContentSecurityPolicy, storageMediaOrigin } from './editor-policy';

/**
 * GET /editor, /editor/projects/{id}, /editor/reviews and /editor/reviews/{id} — the editor page
 * (docs/editing.md#the-editor), the same HTML for all: its script reads the project (or the
 * reviewers' queue) from the path and the key from the tab's session
 * storage or the URL fragment, which never reaches this server. GET /editor/{asset} — its
 * scripts and stylesheet. All public: the page holds no data, every call it makes needs a key.
 */
export function editorRoutes({ downloadLinks }: AppDeps): Router {
  const router = new Router();
  let policy: Promise<string> | undefined;
  const contentSecurityPolicy = () => {
    policy ??= storageMediaOrigin(downloadLinks).then(editorContentSecurityPolicy);
    policy.catch(() => {
      policy = undefined;
    });
    return policy;
  };

  const send = (ctx: Context, file: EditorFile) => {
    ctx.type = file.contentType;
    // Revalidated on every load (a 304 while unchanged), so a deployment is picked up at once.
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    // Signed audio links and project ids stay out of other sites' logs.
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.etag = file.etag;
    ctx.status = 200; // ctx.fresh compares validators only for a successful response
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = file.bytes;
  };

  const page = async (ctx: Context) => {
    ctx.set('Content-Security-Policy', await contentSecurityPolicy());
    send(ctx, await readEditorPage());
  };
  router.get('/editor', page);
  router.get('/editor/projects/:project_id', page);
  // Reviewers' pages (docs/editing.md#reviewers): the queue, and one review. Before /editor/{asset}.
  router.get('/editor/reviews', page);
  router.get('/editor/reviews/:project_id', page);

  router.get('/editor/:asset', async (ctx) => {
    const file = readEditorAsset(ctx.params.asset ?? '');
    if (!file) throw ApiError.notFound('editor file', 'asset');
    send(ctx, await file);
  });

  return router;
}
