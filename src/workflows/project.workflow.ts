import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowFailure,
  condition,
  executeChild,
  isCancellation,
  ParentClosePolicy,
  proxyActivities,
  setHandler,
  TemporalFailure,
  type ActivityInterfaceFor,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { OutcomeActivities } from '../activities/outcome.activities';
import type { ProjectActivities } from '../activities/project.activities';
import type { WebhookActivities } from '../activities/webhook.activities';
import type { YoutubeSourceActivities } from '../activities/youtube-source.activities';
import { languagesAddedSignal, uploadCompletedSignal, type ProjectWorkflowInput } from '../shared/project-contracts';
import { languageSearchAttributes } from '../shared/search-attributes';
import { languageWorkflowId } from '../shared/workflow-ids';
import { QUOTA_BOUND_STEP, SHORT_DB_STEP, SOURCE_DOWNLOAD_STEP } from './activity-profiles';
import { applicationFailureMessage, applicationFailureType, failureDetail, languageFailureCode } from './failure-detail';
import { languageWorkflow } from './language.workflow';
import { mediaActivitiesFor, settlesAfterCancel } from './media-route';
import { showProjectStatus, showStatuses } from './status-attributes';

const db = proxyActivities<ProjectActivities & OutcomeActivities>(SHORT_DB_STEP);
type SourceMedia = ProjectActivities & YoutubeSourceActivities;
type RoutedSourceMedia = { activities: ActivityInterfaceFor<SourceMedia>; taskQueue: string };
const youtube = proxyActivities<YoutubeSourceActivities>(QUOTA_BOUND_STEP);
const webhooks = proxyActivities<WebhookActivities>(SHORT_DB_STEP);

type ProjectResult = { status: string };

/**
 * One dubbing project: `project/<id>`. Validates the source, enforces the spend ceiling,
 * charges once, transcribes once, then runs one child per language.
 *
 * Every way out leaves the project in a final state with its money settled: a source step that
 * fails releases the hold (before the charge) or refunds every language (after it); an
 * operator's cancel or a bug settles the same way before the workflow reports it. Termination
 * runs no code at all: the reconciler schedule finds those projects and settles them.
 * The workflow is re-entrant: started again (by the reconciler, a repeated upload/complete, or
 * a language addition after it ended) it picks up from what the database says is done.
 */
export async function projectWorkflow({ projectId }: ProjectWorkflowInput): Promise<ProjectResult> {
  // Upload projects are started by upload/complete through signalWithStart; the signal only
  // says so. Abandoned uploads never get a workflow: the upload-expiry schedule settles them.
  setHandler(uploadCompletedSignal, () => undefined);
  // Languages added (and already charged) by POST .../languages while this run is alive.
  const added: string[] = [];
  setHandler(languagesAddedSignal, ({ locales }) => {
    added.push(...locales);
  });
  try {
    const result = await runProject(projectId, added);
    // Whatever the run recorded last (validated, failed, completed) becomes webhook events.
    showStatuses((await webhooks.emitProjectEvents(projectId)).statuses);
    return result;
  } catch (err) {
    const code = isCancellation(err) ? 'cancelled' : 'internal_error';
    await CancellationScope.nonCancellable(async () => {
      await db.settleProject({ projectId, code, detail: failureDetail(err) });
      showStatuses((await webhooks.emitProjectEvents(projectId)).statuses);
    });
    // A plain Error here is a bug: fail the workflow (visible in the UI) instead of retrying its
    // task forever, now that the money is settled.
    if (err instanceof TemporalFailure) throw err;
    throw ApplicationFailure.nonRetryable(failureDetail(err), 'internal_error');
  }
}

async function runProject(projectId: string, added: string[]): Promise<ProjectResult> {
  const start = await db.loadProjectStart(projectId);
  showProjectStatus(start.status);
  if (start.status === 'failed' || start.status === 'completed' || start.status === 'partially_completed') return { status: start.status };
  // Cancelled by the customer before this run could hear of it (started by upload/complete or the
  // reconciler after the cancel committed): settle as a cancel would (docs/lifecycle.md#cancel).
  if (start.cancelled) return { status: await db.settleProject({ projectId, code: 'cancelled', detail: 'cancelled by the customer before the workflow ran' }) };
  // The source steps run on a media pool that can transcribe the source locale, chosen when the
  // first of them is due (a restarted run that has nothing left to do never asks).
  let routed: Promise<RoutedSourceMedia> | undefined;
  // (Kept wrapped: never resolve a promise to an activity proxy; see mediaActivitiesFor.)
  const media = () => (routed ??= mediaActivitiesFor<SourceMedia>({ locale: start.sourceLocale, role: 'source' }));

  if (start.sourceType === 'youtube' && start.usageState === 'pending_validation') {
    const fetched = await fetchYoutubeSource(projectId, media);
    if (!fetched) return { status: 'failed' };
  }
  // Only reachable if someone starts this workflow by hand before the upload completed.
  if (start.status === 'awaiting_upload') return { status: start.status };

  if (start.usageState === 'pending_validation') {
    const source = await sourceStep(async () => (await media()).activities.prepareSource(projectId));
    if ('failed' in source || !source.ok) {
      const message = 'failed' in source ? sourceFailureMessage(source.failed) : source.message;
      // A music-and-effects track that does not fit its source, or a preview's range past the
      // source's end, fails alike under its own code (docs/background.md, docs/previews.md).
      const code = 'failed' in source ? (applicationFailureType(source.failed) !== 'invalid_media' ? 'engine_failed' : 'invalid_media') : (source.code ?? 'invalid_media');
      await db.failProject({ projectId, code, message, usageState: 'released', detail: 'failed' in source ? failureDetail(source.failed) : undefined });
      return { status: 'failed' };
    }
    const charge = await db.settleCharges({ projectId, durationSeconds: source.durationSeconds });
    if (charge.outcome !== 'charged') return { status: 'failed' };
    // project.validated goes out now, not after the (long) transcription.
    showStatuses((await webhooks.emitProjectEvents(projectId)).statuses);
  }

  if (!start.transcribed) {
    const transcribed = await sourceStep(async () => (await media()).activities.transcribeSource(projectId));
    if ('failed' in transcribed) {
      // Every language was charged: fail and refund each of them, once. An engine that failed
      // is the platform's failure (each language's retry is free, and transcribes again); only
      // unreadable media is the source's.
      const code = applicationFailureType(transcribed.failed) === 'internal_error' ? 'internal_error' : 'engine_failed';
      const languageCode = languageFailureCode(transcribed.failed, 'source');
      return { status: await db.settleProject({ projectId, code, languageCode, detail: failureDetail(transcribed.failed) }) };
    }
    await db.setProjectPhase({ projectId, phase: 'dubbing' });
  }

  return { status: await runLanguages(projectId, start.workspaceId, start.openLocales, added) };
}

/**
 * Runs one child per open language, and one per language added while they run (`added` is
 * filled by the languagesAdded signal), then records the project's outcome. A language added
 * while the outcome was being recorded is run too, and the outcome recorded again, so the run
 * never ends with an added language left behind. Each locale runs once per run.
 */
async function runLanguages(projectId: string, workspaceId: string, open: string[], added: string[]): Promise<string> {
  const launched = new Set<string>();
  const children: Promise<void>[] = [];
  let running = 0;
  let failure: { error: unknown } | undefined;
  const launch = (locale: string) => {
    if (launched.has(locale)) return;
    launched.add(locale);
    running++;
    const child = runLanguage(projectId, workspaceId, locale).catch((error: unknown) => {
      failure ??= { error };
    });
    children.push(child.finally(() => running--));
  };
  open.forEach(launch);
  for (;;) {
    // Not cancellable: on a cancel the children settle themselves first (as they always did),
    // then the outcome step below refuses to run and the project is settled as cancelled.
    await CancellationScope.nonCancellable(() => condition(() => failure !== undefined || added.length > 0 || running === 0));
    if (failure) throw failure.error;
    if (added.length > 0) {
      added.splice(0).forEach(launch);
      continue;
    }
    await Promise.all(children); // all settled by now: running is 0
    const status = await db.recordProjectOutcome(projectId);
    if (added.length === 0) return status;
  }
}

/**
 * A YouTube source: metadata first (unavailable or over the ceiling ends the project before any
 * byte is downloaded), then the download. False when the project has ended, its hold released.
 */
async function fetchYoutubeSource(projectId: string, media: () => Promise<RoutedSourceMedia>): Promise<boolean> {
  const checked = await sourceStep(() => youtube.checkYoutubeSource(projectId));
  if ('failed' in checked) {
    await db.failProject({
      projectId,
      code: 'source_unavailable',
      message: 'YouTube could not be reached to read the video. The credit hold was released; nothing was charged. Try again later.',
      usageState: 'released',
      detail: failureDetail(checked.failed),
    });
    return false;
  }
  if (!checked.ok) return false;
  // On the same pool's queue, with a start-to-close that holds yt-dlp's own timeout and the store write.
  const downloaded = await sourceStep(async () =>
    proxyActivities<YoutubeSourceActivities>({ ...settlesAfterCancel(SOURCE_DOWNLOAD_STEP), taskQueue: (await media()).taskQueue }).downloadYoutubeSource(projectId),
  );
  if ('failed' in downloaded) {
    const permanent = applicationFailureType(downloaded.failed) === 'source_unavailable';
    const reason = permanent ? applicationFailureMessage(downloaded.failed) : 'The video could not be downloaded from YouTube after several attempts.';
    await db.failProject({
      projectId,
      code: 'source_unavailable',
      message: `${reason} The credit hold was released; nothing was charged.`,
      usageState: 'released',
      detail: failureDetail(downloaded.failed),
    });
    return false;
  }
  return true;
}

/** A source step that exhausted its attempts or failed permanently, as a value to settle. */
async function sourceStep<T>(step: () => Promise<T>): Promise<T | { failed: ActivityFailure }> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof ActivityFailure && !isCancellation(err)) return { failed: err };
    throw err;
  }
}

function sourceFailureMessage(failure: ActivityFailure): string {
  return applicationFailureType(failure) === 'invalid_media'
    ? 'The source is not readable audio or video; the credit hold was released and nothing was charged.'
    : 'The source could not be processed by the dubbing engines; the credit hold was released and nothing was charged.';
}

/**
 * Runs one language as a child. A child that ends without settling itself (terminated from the
 * Web UI, timed out) is settled here: failed and refunded once, so the project still ends.
 */
async function runLanguage(projectId: string, workspaceId: string, locale: string): Promise<void> {
  try {
    await executeChild(languageWorkflow, {
      workflowId: languageWorkflowId(projectId, locale),
      args: [{ projectId, locale, attempt: 1 }],
      // A language keeps running if the project workflow is terminated by an operator.
      parentClosePolicy: ParentClosePolicy.ABANDON,
      typedSearchAttributes: languageSearchAttributes(projectId, workspaceId, locale),
    });
  } catch (err) {
    // Already running on its own (this project workflow was restarted): it settles itself.
    if (err instanceof WorkflowExecutionAlreadyStartedError) return;
    if (!(err instanceof ChildWorkflowFailure) && !isCancellation(err)) throw err;
    const code = isCancellation(err) ? 'cancelled' : 'terminated';
    await CancellationScope.nonCancellable(() => db.settleInterruptedLanguage({ projectId, locale, code, detail: failureDetail(err) }));
  }
}
