import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { LanguageActivities } from '../activities/language.activities';
import type { OutcomeActivities } from '../activities/outcome.activities';
import type { LanguageWorkflowInput, LanguageWorkflowResult } from '../shared/project-contracts';
import { LONG_MEDIA_STEP, SHORT_DB_STEP } from './activity-profiles';

const media = proxyActivities<LanguageActivities>(LONG_MEDIA_STEP);
const db = proxyActivities<LanguageActivities & OutcomeActivities>(SHORT_DB_STEP);

function failureMessage(err: unknown): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure || cause instanceof Error) return cause.message;
  return 'the dubbing engines failed';
}

/**
 * One target language: `project/<id>/lang/<locale>`. Translate, dub, publish; a language that
 * finally fails is refunded and the project carries on with the others. Ends by recomputing
 * the project's status, so a console retry of one language also settles the project.
 */
export async function languageWorkflow(input: LanguageWorkflowInput): Promise<LanguageWorkflowResult> {
  const step = { projectId: input.projectId, locale: input.locale };
  await db.beginLanguageAttempt(input);
  let status: LanguageWorkflowResult['status'] = 'completed';
  try {
    await media.translateLanguage(step);
    const dubbed = await media.dubLanguage(step);
    await db.publishLanguage({ ...step, files: dubbed.files, driftSeconds: dubbed.driftSeconds });
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    status = 'failed';
    await db.failLanguage({ ...step, code: 'engine_failed', message: failureMessage(err) });
  }
  await db.recordProjectOutcome(input.projectId);
  return { locale: input.locale, status };
}
