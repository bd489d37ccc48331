import { upsertSearchAttributes } from '@temporalio/workflow';
import { FAILURE_CODE, LANGUAGE_STATUS, PROJECT_STATUS } from '../shared/search-attributes';
import type { ProjectStatuses } from '../shared/webhook-contracts';

// The statuses GET shows, mirrored onto the workflows as search attributes while they move, so
// `ProjectStatus = "failed"` or `LanguageStatus = "failed" AND FailureCode = "engine_failed"`
// finds trouble in the Web UI and `temporal workflow list --query`.

/** A null failure code removes the attribute (a run that moved on from a failure). */
export function showProjectStatus(status: string, failureCode: string | null = null): void {
  upsertSearchAttributes([
    { key: PROJECT_STATUS, value: status },
    { key: FAILURE_CODE, value: failureCode },
  ]);
}

export function showLanguageStatus(status: string, failureCode: string | null = null): void {
  upsertSearchAttributes([
    { key: LANGUAGE_STATUS, value: status },
    { key: FAILURE_CODE, value: failureCode },
  ]);
}

/** What the webhook relay read after a step: the project's statuses, or one language's. */
export function showStatuses(statuses: ProjectStatuses | null, locale?: string): void {
  if (!statuses) return;
  if (locale === undefined) {
    showProjectStatus(statuses.status, statuses.status === 'failed' ? statuses.failureCode : null);
    return;
  }
  const language = statuses.languages[locale];
  if (language) showLanguageStatus(language.status, language.status === 'failed' ? language.failureCode : null);
}
