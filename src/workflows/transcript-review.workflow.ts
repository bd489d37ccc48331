import { ActivityFailure, allHandlersFinished, ApplicationFailure, condition, log, patched, proxyActivities, setHandler } from '@temporalio/workflow';
import type { RedubActivities } from '../activities/redub.activities';
import type { ReviewActivities } from '../activities/review.activities';
import type { WebhookActivities } from '../activities/webhook.activities';
import {
  claimReviewUpdate,
  projectLanguagesChangedSignal,
  submitTranscriptUpdate,
  type ReviewWorkflowStatus,
  type TranscriptReviewResult,
  type TranscriptReviewWorkflowInput,
} from '../shared/review-contracts';
import { findCueProblem } from '../shared/transcript-cues';
import { SHORT_DB_STEP } from './activity-profiles';
import { applicationFailureMessage } from './failure-detail';
import { mediaActivitiesFor } from './media-route';

const db = proxyActivities<ReviewActivities & RedubActivities>(SHORT_DB_STEP);
const webhooks = proxyActivities<WebhookActivities>(SHORT_DB_STEP);

/**
 * A verified project waits for its languages still running on the signal the relay sends when
 * one ends; it looks again on its own only this rarely, in case a signal was lost. About ten
 * history events each time, so even a language that runs for weeks stays far from Temporal's
 * limit of 51,200 events (a one-minute poll reached it in about three days).
 */
const OPEN_LANGUAGES_RECHECK_MS = 60 * 60_000;

/**
 * One paid human review of a project's English transcript: `project/<id>/review`, started once
 * the charge is committed. It waits for reviewers, whose console commands are updates on it
 * (`claimReview` → in_review, `submitTranscript` → verified), so its history tells the story.
 * Not verified by the deadline: refunded once and `expired`. Verified: every language completed
 * from the machine transcript is dubbed again from the verified one, free, under the next
 * revision (claimed as it starts, docs/editing.md#revisions).
 * Re-entrant: started again, it picks up from what the database says.
 */
export async function transcriptReviewWorkflow({ projectId }: TranscriptReviewWorkflowInput): Promise<TranscriptReviewResult> {
  // The handlers are set before the first await: a reviewer's update may arrive in the very first
  // workflow task (a busy worker), and an update with no handler yet is rejected. Until the state
  // is loaded the validators let it in, and the handler waits for the state and checks then.
  let state: Awaited<ReturnType<typeof db.loadReview>> | undefined = undefined;
  let status: ReviewWorkflowStatus | undefined;
  // One review step at a time, and none once the deadline has closed the review.
  let busy = false;
  let closed = false;
  const refusal = (expected: ReviewWorkflowStatus, action: string): string | undefined => {
    if (closed || status !== expected) return `the review is ${status}${closed && status !== 'verified' ? ' (its deadline has passed)' : ''}; ${action}`;
    if (busy) return 'another review step is in progress; retry in a moment';
    return undefined;
  };
  /** In a validator: refuse now, unless the state is not loaded yet (the handler checks then). */
  const refuseUnless = (expected: ReviewWorkflowStatus, action: string) => {
    const reason = state === undefined ? undefined : refusal(expected, action);
    if (reason) throw new Error(reason);
  };
  /** In a handler: wait for the state, then refuse as the validator would have. */
  const loadedAndStill = async (expected: ReviewWorkflowStatus, action: string) => {
    await condition(() => state !== undefined);
    const reason = refusal(expected, action);
    if (reason) throw ApplicationFailure.nonRetryable(reason, 'review_step_refused');
  };
  const step = async <T extends { status: ReviewWorkflowStatus }>(run: () => Promise<T>): Promise<T> => {
    busy = true;
    try {
      const result = await run();
      status = result.status;
      return result;
    } catch (err) {
      // The activity's refusal reaches the reviewer's console as the update's failure.
      if (err instanceof ActivityFailure) throw ApplicationFailure.nonRetryable(applicationFailureMessage(err) ?? 'the review step failed', 'review_step_refused');
      throw err;
    } finally {
      busy = false;
    }
  };

  setHandler(
    claimReviewUpdate,
    async ({ reviewer, reviewerKeyId }) => {
      await loadedAndStill('requested', 'only a requested review can be claimed');
      return step(() => db.claimReview({ projectId, reviewer, reviewerKeyId }));
    },
    {
      validator: ({ reviewer }) => {
        refuseUnless('requested', 'only a requested review can be claimed');
        if (typeof reviewer !== 'string' || reviewer.trim() === '') throw new Error('a reviewer name is required');
      },
    },
  );
  setHandler(
    submitTranscriptUpdate,
    async ({ reviewer, reviewerKeyId, cues }) => {
      await loadedAndStill('in_review', 'claim it before submitting a transcript');
      const problem = findCueProblem(cues, state!.durationSeconds);
      if (problem) throw ApplicationFailure.nonRetryable(problem, 'review_step_refused');
      return step(() => db.verifyTranscript({ projectId, reviewer, reviewerKeyId, cues }));
    },
    {
      validator: ({ cues }) => {
        refuseUnless('in_review', 'claim it before submitting a transcript');
        const problem = state === undefined ? null : findCueProblem(cues, state.durationSeconds);
        if (problem) throw new Error(problem);
      },
    },
  );

  state = await db.loadReview(projectId);
  status = state.status;

  if (status === 'requested' || status === 'in_review') {
    await condition(() => status === 'verified', Math.max(0, state.deadlineAt - Date.now()));
    closed = true;
    // A submission already accepted finishes first: it may still verify the review.
    await condition(() => !busy);
    // (The handlers may have changed it; TypeScript cannot see that.)
    if ((status as ReviewWorkflowStatus) !== 'verified') {
      const expired = await db.expireReview(projectId);
      status = expired.status;
      log.info('transcript review expired', { projectId, refundedCredits: expired.refundedCredits });
    }
  }

  const result: TranscriptReviewResult = { status, redubbed: [], redubFailed: [] };
  if (status === 'verified') {
    // transcript_review.verified first, then each re-dubbed language's new revision.
    await webhooks.emitProjectEvents(projectId);
    await redubCompletedLanguages(projectId, result);
    await webhooks.emitProjectEvents(projectId);
  }
  await condition(allHandlersFinished);
  return result;
}

/**
 * Re-dubs each completed language made from the machine transcript, free. Languages still
 * running when the transcript was verified are waited for: one that had already translated the
 * machine transcript completes from it and is re-dubbed then; one that had not uses the verified
 * transcript and needs nothing more. A re-dub that fails leaves the language's earlier files.
 */
async function redubCompletedLanguages(projectId: string, result: TranscriptReviewResult): Promise<void> {
  let languagesChanged = false;
  setHandler(projectLanguagesChangedSignal, () => {
    languagesChanged = true;
  });
  // Cleared before each plan, so a language that ends while the plan is read is not missed.
  for (languagesChanged = false; ; languagesChanged = false) {
    const plan = await db.planRedubs(projectId);
    const todo = plan.locales.filter((l) => !result.redubFailed.includes(l));
    await Promise.all(
      todo.map(async (locale) => {
        try {
          const { activities: media } = await mediaActivitiesFor<RedubActivities>({ locale, role: 'target', projectId });
          const redub = await media.redubLanguage({ projectId, locale });
          if (redub.redubbed) result.redubbed.push(locale);
        } catch (err) {
          if (!(err instanceof ActivityFailure)) throw err;
          log.warn('re-dub failed; the language keeps its earlier files', { projectId, locale, reason: applicationFailureMessage(err) });
          result.redubFailed.push(locale);
          // Its claim is let go, so the language can be edited and regenerated again (histories
          // from before the claim existed replay without this step).
          if (patched('redub-failure-releases-claim')) await db.releaseRedub({ projectId, locale });
        }
      }),
    );
    if (todo.length === 0 && !plan.languagesOpen) return;
    if (todo.length === 0) await condition(() => languagesChanged, OPEN_LANGUAGES_RECHECK_MS);
  }
}
