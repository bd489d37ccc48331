import type { Middleware } from 'koa';
import type { Project } from '../../../db/projects';
import type { AppDeps } from '../../app-deps';
import { workspaceCaller } from '../../middleware/authenticate';
import { bodyOf } from '../../middleware/validate';
import { checkLocales } from '../check-locales';
import { chooseVoices, type ChosenVoices } from '../choose-voices';
import { listSpeakers } from '../../../db/speakers';
import { loadOwnProject } from '../load-own-project';
import { addLanguagesBodySchema } from './add-languages.schema';
import { quoteAddition, type AdditionQuote } from './addition-quote';
import { stateReader } from '../../request-state';

/** What quoteRequest leaves in ctx.state.addition for the steps after it. */
/** The addition quoteRequest() read and priced, for the steps after it. */
export const quotedAdditionOf = stateReader<QuotedAddition>('addition', 'quoteRequest()');

export interface QuotedAddition {
  project: Project;
  quote: AdditionQuote;
  /** The voice of each requested locale (choose-voices.ts); the new ones' are written. */
  voices: ChosenVoices;
}

/**
 * Loads the caller's project (404 otherwise), refuses locales it cannot take (400 naming
 * `target_locales[i]`: not servable as a target, or the project's source; `voices.<locale>`: a
 * voice not offered for it) and quotes the
 * request (409 while billable seconds are unknown). Runs before the idempotency step, so a
 * refused request never touches its key.
 */
export function quoteRequest(deps: AppDeps): Middleware {
  return async (ctx, next) => {
    const body = bodyOf(ctx, addLanguagesBodySchema);
    const project = await loadOwnProject(deps, workspaceCaller(ctx), ctx.params.project_id!);
    checkLocales(deps.capabilities.current(), project.source_locale, body.target_locales);
    // A per-speaker map names the project's speakers as they are now (docs/speakers.md#voices).
    const labels = body.voices && Object.values(body.voices).some((v) => typeof v !== 'string') ? (await listSpeakers(deps.db, project.id)).map((s) => s.label) : [];
    const voices = chooseVoices(deps.capabilities.current(), body.target_locales, body.voices, labels);
    const addition: QuotedAddition = { project, quote: quoteAddition(project, body), voices };
    ctx.state.addition = addition;
    await next();
  };
}
