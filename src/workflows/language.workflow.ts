import { ActivityFailure, CancellationScope, isCancellation, log, patched, proxyActivities } from '@temporalio/workflow';
import type { LanguageActivities } from '../activities/language.activities';
import type { OutcomeActivities } from '../activities/outcome.activities';
import type { WebhookActivities } from '../activities/webhook.activities';
import type { LanguageWorkflowInput, LanguageWorkflowResult } from '../shared/project-contracts';
import { SHORT_DB_STEP } from './activity-profiles';
import { failureDetail, languageFailureCode } from './failure-detail';
import { mediaActivitiesFor } from './media-route';
import { PREPARE_MISSING_SOURCE, prepareMissingSource } from './prepare-missing-source';
import { showLanguageStatus, showStatuses } from './status-attributes';

const db = proxyActivities<LanguageActivities & OutcomeActivities>(SHORT_DB_STEP);
const webhooks = proxyActivities<WebhookActivities>(SHORT_DB_STEP);

/**
 * One target language: `project/<id>/lang/<locale>`. Translate, dub, publish (after the source
 * steps, when its project never finished them: a retry after recognition failed). Every way out
 * settles: a failure or an operator's cancel fails the attempt and refunds it once, and the
 * project's status is recomputed, so a console retry or a Web UI reset also settles the project.
 * A completed language is never re-run; a failed one is reopened like a console retry.
 */
export async function languageWorkflow(input: LanguageWorkflowInput): Promise<LanguageWorkflowResult> {
  try {
    return await runLanguage(input);
  } finally {
    // Every way out (completed, failed, cancelled) may have ended the language and the project:
    // those changes become webhook events before the workflow reports them.
    await CancellationScope.nonCancellable(async () => showStatuses((await webhooks.emitProjectEvents(input.projectId)).statuses, input.locale));
  }
}

async function runLanguage(input: LanguageWorkflowInput): Promise<LanguageWorkflowResult> {
  const { projectId, locale, billing } = input;
  const ended = (status: 'completed' | 'failed', reason?: string): LanguageWorkflowResult => ({ locale, status, ...(reason ? { reason } : {}) });

  const claim = await db.beginLanguageAttempt(input);
  if (claim.state !== 'open') {
    if (claim.state === 'refused') log.warn('retry refused', { projectId, locale, reason: claim.message });
    await db.recordProjectOutcome(projectId);
    return claim.state === 'completed' ? ended('completed') : ended('failed', claim.message);
  }

  // A reset may replay this run from any point: each step re-claims the attempt and says which
  // one it worked for, so the settling steps below always name the current attempt.
  let attempt = claim.attempt;
  // Which step failed decides who pays for the retry: only unreadable media in the source steps is the source's.
  let step: 'source' | 'language' = 'source';
  try {
    // New runs check the source first; a history recorded before this step replays without it.
    if (patched(PREPARE_MISSING_SOURCE)) await prepareMissingSource(projectId);
    step = 'language';
    showLanguageStatus('translating');
    // Translation and speech run on a media pool whose engines serve this locale.
    const { activities: media } = await mediaActivitiesFor<LanguageActivities>({ locale, role: 'target', projectId });
    const translated = await media.translateLanguage({ projectId, locale, attempt, billing });
    if (!translated.ran) return ended(translated.status);
    attempt = translated.attempt;
    showLanguageStatus('dubbing');
    const dubbed = await media.dubLanguage({ projectId, locale, attempt, billing });
    if (!dubbed.ran) return ended(dubbed.status);
    attempt = dubbed.attempt;
    const published = await db.publishLanguage({
      projectId,
      locale,
      attempt,
      billing,
      files: dubbed.files,
      lines: dubbed.lines,
      driftSeconds: dubbed.driftSeconds,
      quality: dubbed.quality,
      captionBreaches: dubbed.captionBreaches,
      loudness: dubbed.loudness,
    });
    return ended(published.status);
  } catch (err) {
    if (isCancellation(err)) {
      // Cancelled from the Web UI or by the parent: settle before reporting the cancellation.
      await CancellationScope.nonCancellable(async () => {
        await db.failLanguage({ projectId, locale, attempt, code: 'cancelled', detail: failureDetail(err) });
        await db.recordProjectOutcome(projectId);
      });
      throw err;
    }
    if (!(err instanceof ActivityFailure)) throw err;
    const code = languageFailureCode(err, step);
    await db.failLanguage({ projectId, locale, attempt, code, detail: failureDetail(err) });
    await db.recordProjectOutcome(projectId);
    return ended('failed');
  }
}
