import type { Middleware } from 'koa';
import type { Project } from '../../../db/projects';
import type { AppDeps } from '../../app-deps';
import type { AuthContext } from '../../middleware/authenticate';
import { bodyOf } from '../../middleware/validate';
import { checkLocales } from '../check-locales';
import { loadOwnProject } from '../load-own-project';
import { addLanguagesBodySchema } from './add-languages.schema';
import { quoteAddition, type AdditionQuote } from './addition-quote';

/** What quoteRequest leaves in ctx.state.addition for the steps after it. */
export interface QuotedAddition {
  project: Project;
  quote: AdditionQuote;
}

/**
 * Loads the caller's project (404 otherwise), refuses locales it cannot take (400 naming
 * `target_locales[i]`: not servable as a target, or the project's source) and quotes the
 * request (409 while billable seconds are unknown). Runs before the idempotency step, so a
 * refused request never touches its key.
 */
export function quoteRequest(deps: AppDeps): Middleware {
  return async (ctx, next) => {
    const body = bodyOf(ctx, addLanguagesBodySchema);
    const project = await loadOwnProject(deps, ctx.state.auth as AuthContext, ctx.params.project_id!);
    checkLocales(deps.capabilities.current(), project.source_locale, body.target_locales);
    const addition: QuotedAddition = { project, quote: quoteAddition(project, body) };
    ctx.state.addition = addition;
    await next();
  };
}
