import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../db/create-db';
import { refundCredits } from '../db/credits';
import { updateLanguage, updateProject, type ProjectStatus } from '../db/projects';

// How languages end and what that means for the project: failure with exactly one refund,
// and the project's final status recomputed from its languages (idempotent, order-free).

export function createOutcomeActivities({ db }: { db: Db }) {
  return {
    /** Opens an attempt; a console retry also reopens a project that had already finished. */
    async beginLanguageAttempt(input: { projectId: string; locale: string; attempt: number }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const language = await trx.selectFrom('project_languages').selectAll().where('project_id', '=', input.projectId).where('locale', '=', input.locale).forUpdate().executeTakeFirst();
        if (!language) throw ApplicationFailure.nonRetryable(`no language ${input.locale} on project ${input.projectId}`, 'internal_error');
        if (language.status === 'completed') return;
        // A failed language runs again from the console (attempt + 1) or from a Web UI reset
        // (the same attempt replayed): either way it is reopened, and so is its project.
        if (language.status === 'failed' || input.attempt > language.attempt) {
          await updateLanguage(trx, input.projectId, input.locale, { status: 'queued', percent: 0, failure_code: null, failure_message: null, phase_message: 'Retrying.', attempt: Math.max(input.attempt, language.attempt), completed_at: null });
          await trx
            .updateTable('projects')
            .set({ status: 'processing', phase: 'dubbing', failure_code: null, failure_message: null, completed_at: null, updated_at: new Date() })
            .where('id', '=', input.projectId)
            .where('status', 'in', ['completed', 'partially_completed', 'failed'])
            .execute();
        }
      });
    },

    /**
     * Marks the language failed and refunds its share once: the refund's ledger reference is
     * per project and locale, so neither a retried activity nor a failed retry refunds twice.
     */
    async failLanguage(input: { projectId: string; locale: string; code: string; message: string }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const project = await trx.selectFrom('projects').selectAll().where('id', '=', input.projectId).forUpdate().executeTakeFirstOrThrow();
        const language = await trx.selectFrom('project_languages').selectAll().where('project_id', '=', input.projectId).where('locale', '=', input.locale).executeTakeFirstOrThrow();
        await updateLanguage(trx, input.projectId, input.locale, { status: 'failed', failure_code: input.code, failure_message: input.message, phase_message: null });
        if (language.charged_seconds <= 0) return;
        const refunded = await refundCredits(trx, {
          workspaceId: project.workspace_id,
          reference: `${project.id}:${input.locale}:refund`,
          amount: language.charged_seconds * project.credits_per_second,
          projectId: project.id,
          description: `language ${input.locale} failed`,
        });
        if (!refunded) return;
        await updateLanguage(trx, input.projectId, input.locale, { refunded_seconds: language.charged_seconds });
        await updateProject(trx, project.id, {
          charged_seconds: project.charged_seconds - language.charged_seconds,
          refunded_seconds: project.refunded_seconds + language.charged_seconds,
        });
      });
    },

    /** completed / partially_completed / failed once every language has ended; else unchanged. */
    async recordProjectOutcome(projectId: string): Promise<ProjectStatus> {
      return db.transaction().execute(async (trx) => {
        const project = await trx.selectFrom('projects').selectAll().where('id', '=', projectId).forUpdate().executeTakeFirstOrThrow();
        const languages = await trx.selectFrom('project_languages').select(['status']).where('project_id', '=', projectId).execute();
        if (project.status !== 'processing' || languages.some((l) => l.status !== 'completed' && l.status !== 'failed')) return project.status;
        const completed = languages.filter((l) => l.status === 'completed').length;
        const status: ProjectStatus = completed === languages.length ? 'completed' : completed > 0 ? 'partially_completed' : 'failed';
        await updateProject(trx, projectId, {
          status,
          phase: status === 'failed' ? 'failed' : 'completed',
          completed_at: new Date(),
          ...(status === 'failed' ? { failure_code: 'engine_failed', failure_message: 'Every language failed; all charges were refunded.', usage_state: 'refunded' as const } : {}),
        });
        return status;
      });
    },
  };
}

export type OutcomeActivities = ReturnType<typeof createOutcomeActivities>;
