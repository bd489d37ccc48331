import { activityLog } from './activity-log';
import type { Db } from '../db/create-db';
import { lockExistingProject, setProjectFailure, type ProjectStatus } from '../db/projects';
import { listLanguageStatuses } from '../db/project-languages';
import type { RetryBilling } from '../shared/project-contracts';
import { failUnchargedProject } from '../lifecycle/project-lifecycle';
import { PROJECT_FAILURE_MESSAGES, type LanguageFailureCode, type ProjectFailureCode } from '../shared/failure-messages';
import { claimAttempt, failLanguage, isFinalLanguage, type AttemptClaim } from '../lifecycle/language-lifecycle';
import { settleProjectOutcome } from '../lifecycle/project-lifecycle';
import type { EventSettings } from '../lifecycle/project-events';

// How languages and projects end, whatever ends them: a failure, an operator's cancel or
// terminate, a Web UI reset, or the reconciler. Each ends in a final status with the money
// settled (released or refunded), exactly once.

export function createOutcomeActivities(deps: { db: Db; webhooks: EventSettings }) {
  const { db, webhooks: events } = deps;
  return {
    /** Opens an attempt; a failed language is reopened (and paid for) like a console retry. */
    async beginLanguageAttempt(input: { projectId: string; locale: string; attempt: number; billing?: RetryBilling }): Promise<AttemptClaim> {
      return db.transaction().execute((trx) => claimAttempt(trx, input));
    },

    /** Fails this attempt of a language and refunds what it was charged, once. */
    async failLanguage(input: { projectId: string; locale: string; attempt: number; code: LanguageFailureCode; detail: string }): Promise<void> {
      activityLog().warn('language failed', { ...input });
      await db.transaction().execute((trx) => failLanguage(trx, input, events));
    },

    /**
     * A language whose workflow ended without settling (terminated, timed out, cancelled before
     * it could clean up): fail whatever attempt is current and refund it, once.
     */
    async settleInterruptedLanguage(input: { projectId: string; locale: string; code: LanguageFailureCode; detail: string }): Promise<void> {
      activityLog().warn('language workflow ended without settling', { ...input });
      await db.transaction().execute(async (trx) => {
        await failLanguage(trx, { ...input, attempt: 'current' }, events);
        await settleProjectOutcome(trx, input.projectId, events);
      });
    },

    /** completed / partially_completed / failed once every language has ended; else unchanged. */
    async recordProjectOutcome(projectId: string): Promise<ProjectStatus> {
      return db.transaction().execute((trx) => settleProjectOutcome(trx, projectId, events));
    },

    /**
     * Ends a project whatever state it is in, with its money settled: before the charge the whole
     * hold is released; after it every language that has not ended is failed and refunded (with
     * `languageCode`, else the project's code). The project workflow's last word on every way
     * out that is not a normal end.
     */
    async settleProject(input: { projectId: string; code: ProjectFailureCode; languageCode?: LanguageFailureCode; detail: string; skipLocales?: string[] }): Promise<ProjectStatus> {
      activityLog().warn('settling a project that could not finish', { ...input });
      return db.transaction().execute(async (trx) => {
        const project = await lockExistingProject(trx, input.projectId);
        const failure = { code: input.code, message: PROJECT_FAILURE_MESSAGES[input.code] };
        if (project.usage_state === 'pending_validation') {
          if (project.status === 'failed' || project.status === 'completed' || project.status === 'partially_completed') return project.status;
          await failUnchargedProject(
            trx,
            project,
            { ...failure, message: `${failure.message} The credit hold was released; nothing was charged.`, usageState: 'released', detail: input.detail },
            events,
          );
          return 'failed';
        }
        if (project.usage_state !== 'charged' && project.usage_state !== 'refunded') return project.status;
        const languages = await listLanguageStatuses(trx, project.id);
        const open = languages.filter((l) => !isFinalLanguage(l.status) && !(input.skipLocales ?? []).includes(l.locale));
        // An engine's failure is the platform's, even in a source step (its retry is free);
        // the caller says `source_failed` only for media that cannot be read.
        const languageCode: LanguageFailureCode = input.languageCode ?? input.code;
        for (const language of open) {
          await failLanguage(trx, { projectId: project.id, locale: language.locale, attempt: 'current', code: languageCode, detail: input.detail }, events);
        }
        if (open.length > 0 && languages.every((l) => open.includes(l) || l.status === 'failed')) {
          // Nothing was delivered: the project failed for the project-level reason.
          await setProjectFailure(trx, project.id, { code: failure.code, message: `${failure.message} Every charge was refunded.`, detail: input.detail });
        }
        return settleProjectOutcome(trx, project.id, events);
      });
    },
  };
}

export type OutcomeActivities = ReturnType<typeof createOutcomeActivities>;
