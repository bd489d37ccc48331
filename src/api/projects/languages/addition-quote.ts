import type { Project } from '../../../db/projects';
import { ApiError } from '../../api-error';
import type { AddLanguagesBody } from './add-languages.schema';

/** `data.addition` (docs/design.md#languages); a request that is not a preview adds `charged_now_seconds`. */
export interface AdditionQuote {
  preview_only: boolean;
  existing_locales: string[];
  new_locales: string[];
  billable_seconds: number;
  credits: number;
  max_billable_seconds: number;
  within_limit: boolean;
}

/**
 * The project's billable seconds, which every language is charged: known once its source was
 * validated and charged. Before that the quote cannot be made yet (409 project_not_ready); a
 * project that ended before any charge never will be (409 project_not_billable).
 */
export function billableSecondsOf(project: Project): number {
  if ((project.usage_state === 'charged' || project.usage_state === 'refunded') && project.billable_seconds !== null) {
    return project.billable_seconds;
  }
  if (project.usage_state === 'pending_validation' && project.status !== 'failed') {
    throw ApiError.conflict('project_not_ready', `This project's billable seconds are known once its source is validated (it is ${project.status}); quote again when it is processing.`);
  }
  throw ApiError.conflict(
    'project_not_billable',
    `This project ended before it was charged (${project.failure_code ?? project.usage_state}), so languages cannot be added to it; create a new project.`,
  );
}

/**
 * Prices the requested locales against the project as it is: those it already has cost
 * nothing, each new one costs the project's billable seconds at the project's rate.
 */
export function quoteAddition(project: Project, body: AddLanguagesBody): AdditionQuote {
  const billable = billableSecondsOf(project);
  const existing = body.target_locales.filter((locale) => project.target_locales.includes(locale));
  const added = body.target_locales.filter((locale) => !project.target_locales.includes(locale));
  const billableSeconds = billable * added.length;
  return {
    preview_only: body.preview_only,
    existing_locales: existing,
    new_locales: added,
    billable_seconds: billableSeconds,
    credits: billableSeconds * project.credits_per_second,
    max_billable_seconds: body.max_billable_seconds,
    within_limit: billableSeconds <= body.max_billable_seconds,
  };
}
