import Router from '@koa/router';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { buildOpenApiDocument } from '../openapi/document';
import { DOCS_ASSETS, readDocsAsset, SWAGGER_UI_VERSION } from './docs-assets';
import { DOCS_CONTENT_SECURITY_POLICY, DOCS_PAGE_HTML } from './docs-page';

/**
 * GET /v1/openapi.json — the OpenAPI 3.1 document of this very app (its storage driver's routes);
 * GET /docs — the reference page rendering it; GET /docs/{asset} — the renderer's files.
 * All public: the contract is no secret, and a reader needs no key to read it.
 */
export function docsRoutes({ config }: AppDeps): Router {
  // Built and serialized once per app: the document depends only on the configuration.
  let documentJson: string | undefined;
  const router = new Router();

  router.get('/v1/openapi.json', (ctx) => {
    documentJson ??= JSON.stringify(buildOpenApiDocument({ storageDriver: config.storage.driver, serverUrl: config.http.publicBaseUrl }));
    ctx.type = 'application/json';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = documentJson;
  });

  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', DOCS_CONTENT_SECURITY_POLICY);
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = DOCS_PAGE_HTML;
  });

  router.get('/docs/:asset', async (ctx) => {
    const name = ctx.params.asset ?? '';
    const bytes = readDocsAsset(name);
    if (!bytes) throw ApiError.notFound('documentation asset', 'asset');
    ctx.type = DOCS_ASSETS[name]!.contentType;
    // The files change only with the installed renderer's version.
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.etag = `${SWAGGER_UI_VERSION}-${name}`;
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.status = 200; // ctx.fresh compares validators only for a successful response
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = await bytes;
  });

  return router;
}
