import type { Transaction } from 'kysely';
import { chargeReference } from '../shared/ledger-references';
import type { RetryBilling } from '../shared/project-contracts';
import { chargeCredits } from './credits';
import type { Database } from './database';
import { updateLanguage, updateProject, type Project, type ProjectLanguage } from './projects';

/**
 * Reopens a failed language as attempt `attempt`, paid as `billing` says (docs/money.md#retrying-a-failed-language):
 * `charge` charges `billable_seconds × credits_per_second` under the attempt's own reference
 * (`<p>:<l>:charge:<n>`, so a repeat charges nothing more); `goodwill` charges nothing and records
 * the seconds as goodwill; `free` (the platform's failure) charges nothing. The language is queued
 * again and the project back in processing. The caller holds the project and language locks
 * (lockExistingProject, lockLanguage) and passes the rows it read under them. Throws
 * InsufficientCreditsError, with nothing written, when the charge does not fit.
 */
export async function reopenFailedLanguage(
  trx: Transaction<Database>,
  input: { project: Project; language: ProjectLanguage; attempt: number; billing: RetryBilling },
): Promise<{ chargedSeconds: number }> {
  const { project, language, attempt } = input;
  const billable = project.billable_seconds ?? 0;
  const charged = input.billing === 'charge' ? billable : 0;
  if (charged > 0) {
    await chargeCredits(trx, {
      workspaceId: project.workspace_id,
      reference: chargeReference(project.id, language.locale, attempt),
      amount: charged * project.credits_per_second,
      projectId: project.id,
      description: `retry of ${language.locale}, attempt ${attempt}`,
    });
  }
  await updateLanguage(trx, project.id, language.locale, {
    status: 'queued',
    percent: 0,
    phase_message: 'Retrying.',
    failure_code: null,
    failure_message: null,
    failure_detail: null,
    completed_at: null,
    attempt,
    attempt_charged_seconds: charged,
    charged_seconds: language.charged_seconds + charged,
    goodwill_seconds: language.goodwill_seconds + (input.billing === 'goodwill' ? billable : 0),
  });
  await updateProject(trx, project.id, {
    status: 'processing',
    phase: 'dubbing',
    failure_code: null,
    failure_message: null,
    failure_detail: null,
    completed_at: null,
    // New work after a cancel: the cancel no longer applies (docs/lifecycle.md#cancel).
    cancelled_at: null,
    charged_seconds: project.charged_seconds + charged,
    ...(charged > 0 ? { usage_state: 'charged' as const } : {}),
  });
  return { chargedSeconds: charged };
}
