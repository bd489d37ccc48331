import { speakersRoutes } from './speakers/speakers.routes';
import { glossariesRoutes, projectGlossaryRoutes } from './glossaries/glossaries.routes';
import Router from '@koa/router';
import Koa from 'koa';
import type { AppDeps } from './app-deps';
import { captionsRoutes } from './captions/captions.routes';
import { docsRoutes } from './docs/docs.routes';
import { editorRoutes } from './editor/editor.routes';
import { healthRoutes } from './health/health.routes';
import { localesRoutes } from './locales/locales.routes';
import { voicesRoutes } from './voices/voices.routes';
import { filesRoutes } from './files/files.routes';
import { errorHandler } from './middleware/error-handler';
import { httpMetrics } from '../metrics/http-metrics';
import { jsonBody } from './middleware/json-body';
import { requestId } from './middleware/request-id';
import { requestLog } from './middleware/request-log';
import { traceRequest } from './middleware/trace-request';
import { notesRoutes } from './notes/notes.routes';
import { AuthFailureLimiter } from './rate-limit/auth-failure-limiter';
import { projectsRoutes } from './projects/projects.routes';
import { reviewersRoutes } from './reviewers/reviewers.routes';
import { transcriptsRoutes } from './transcripts/transcripts.routes';
import { uploadPartsRoutes } from './uploads/upload-parts.routes';
import { usageRoutes } from './usage/usage.routes';
import { webhooksRoutes } from './webhooks/webhooks.routes';
import { youtubeRoutes } from './youtube/youtube.routes';

/**
 * Every route of the app. Its own function so the contract tests can list the routes and hold
 * them to the OpenAPI document (test/integration/openapi-routes.test.ts).
 */
export function createRouter(appDeps: AppDeps): Router {
  // One count of failed authentications for every route of the app.
  const deps: AppDeps = appDeps.authFailures ? appDeps : { ...appDeps, authFailures: new AuthFailureLimiter(appDeps.config.rateLimits.authFailuresPerMinute, 60) };
  const root = new Router();
  // The API serves part uploads and file downloads itself only on the local driver; on s3 the
  // client talks to the object store through presigned URLs and these routes do not exist.
  const servesBytes = deps.config.storage.driver === 'local' ? [uploadPartsRoutes(deps), filesRoutes(deps)] : [];
  for (const resource of [
    healthRoutes(deps),
    localesRoutes(deps),
    voicesRoutes(deps),
    usageRoutes(deps),
    projectsRoutes(deps),
    transcriptsRoutes(deps),
    speakersRoutes(deps),
    projectGlossaryRoutes(deps),
    glossariesRoutes(deps),
    captionsRoutes(deps),
    reviewersRoutes(deps),
    youtubeRoutes(deps),
    notesRoutes(deps),
    webhooksRoutes(deps),
    docsRoutes(deps),
    editorRoutes(deps),
    ...servesBytes,
  ]) {
    root.use(resource.routes());
  }
  return root;
}

/** Builds the HTTP app; the server and the integration tests both use this. */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  // The client address (ctx.ip) is what the failed-authentication limit counts by: taken from
  // X-Forwarded-For only as far as the configured proxies wrote it, the rightmost entries, since
  // whatever is left of them came from the client itself.
  app.proxy = deps.config.http.trustProxyHops > 0;
  app.maxIpsCount = deps.config.http.trustProxyHops;
  app.silent = true; // the error middleware logs; Koa's default stderr dump would duplicate it

  app.use(requestId());
  app.use(traceRequest());
  app.use(httpMetrics());
  app.use(requestLog(deps.logger));
  app.use(errorHandler(deps.logger));
  const json = jsonBody(deps.config.http.bodyLimitBytes);
  // Upload parts are raw bytes streamed to storage; the JSON reader must not touch them.
  app.use((ctx, next) => (ctx.path.startsWith('/v1/uploads/') ? next() : json(ctx, next)));

  const root = createRouter(deps);
  app.use(root.routes());
  app.use(root.allowedMethods({ throw: true }));
  return app;
}
