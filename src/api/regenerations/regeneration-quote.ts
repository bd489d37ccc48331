import type { RegenerationChanges } from '../../shared/line-plan';
import type { LanguageRegeneration } from '../../db/language-regenerations';
import type { Project } from '../../db/projects';
import type { LanguageStatus } from '../../db/project-languages';
import { ApiError } from '../api-error';
import type { RegenerateBody } from './regenerate.schema';

// The price of regenerating a language's changed lines (docs/editing.md#regenerate): their summed
// source seconds (measured by quoteRegeneration), at the project's credits per second.

/** `data.regeneration`. */
export interface RegenerationQuote {
  preview_only: boolean;
  segments: number;
  billable_seconds: number;
  credits: number;
  max_billable_seconds: number;
  within_limit: boolean;
  /** What this request charged: 0 for a preview, over the limit, or with nothing to change. */
  charged_now_seconds: number;
}

/**
 * The 409s: one render of a language at a time, and only of a completed language. A running
 * regeneration is named first: whatever state it leaves the language in meanwhile, the caller
 * should wait; so should it for the free re-dub from a verified transcript (`redubbing`), which
 * renders the language's lines again and publishes a revision of its own (docs/editing.md#revisions).
 */
export function assertRegenerable(locale: string, status: LanguageStatus | undefined, running: LanguageRegeneration | undefined, redubbing: boolean): void {
  if (running) {
    throw ApiError.conflict('regeneration_in_progress', `A regeneration of ${locale} is still running; quote again once it has published its revision.`);
  }
  if (redubbing) {
    throw ApiError.conflict('language_busy', `${locale} is being dubbed again from the verified transcript; quote again once it has published its revision.`);
  }
  if (status !== 'completed') throw languageNotCompleted(locale, status);
}

/** `status` undefined: a target of a project not yet validated, which has no language row yet. */
export function languageNotCompleted(locale: string, status: LanguageStatus | undefined): ApiError {
  return ApiError.conflict('language_not_completed', `The ${locale} dub is ${status ?? 'not started'}; it can be regenerated once it is completed.`);
}

export function priceRegeneration(project: Project, measure: RegenerationChanges, body: RegenerateBody): RegenerationQuote {
  return {
    preview_only: body.preview_only,
    segments: measure.segments,
    billable_seconds: measure.billableSeconds,
    credits: measure.billableSeconds * project.credits_per_second,
    max_billable_seconds: body.max_billable_seconds,
    within_limit: measure.billableSeconds <= body.max_billable_seconds,
    charged_now_seconds: 0,
  };
}
