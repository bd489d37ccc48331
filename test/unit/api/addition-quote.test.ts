import { ApiError } from '../../../src/api/api-error';
import { billableSecondsOf, quoteAddition } from '../../../src/api/projects/languages/addition-quote';
import type { Project } from '../../../src/db/projects';

// The language-addition quote (docs/design.md#languages) and when a project can be quoted at all.

const project = (changes: Partial<Project>) =>
  ({ status: 'completed', usage_state: 'charged', billable_seconds: 7, credits_per_second: 3, target_locales: ['es_es', 'ca_es'], failure_code: null, ...changes }) as Project;

const conflictCode = (p: Project) => {
  try {
    billableSecondsOf(p);
    return undefined;
  } catch (err) {
    return err instanceof ApiError ? `${err.status} ${err.code}` : String(err);
  }
};

describe('quoteAddition', () => {
  it("prices only the new locales, at the project's billable seconds and rate, in request order", () => {
    expect(quoteAddition(project({}), { target_locales: ['pt_pt', 'es_es', 'it_it'], max_billable_seconds: 14, preview_only: true })).toEqual({
      preview_only: true,
      existing_locales: ['es_es'],
      new_locales: ['pt_pt', 'it_it'],
      billable_seconds: 14,
      credits: 42,
      max_billable_seconds: 14,
      within_limit: true,
    });
  });

  it('is within the limit up to and including max_billable_seconds', () => {
    const quote = (max: number) => quoteAddition(project({}), { target_locales: ['pt_pt'], max_billable_seconds: max, preview_only: false });
    expect(quote(7).within_limit).toBe(true);
    expect(quote(6).within_limit).toBe(false);
    expect(quote(6)).toMatchObject({ billable_seconds: 7, credits: 21, preview_only: false });
  });

  it('costs nothing when every locale is already in the project', () => {
    expect(quoteAddition(project({}), { target_locales: ['ca_es'], max_billable_seconds: 1, preview_only: true })).toMatchObject({
      new_locales: [],
      billable_seconds: 0,
      credits: 0,
      within_limit: true,
    });
  });
});

describe('billableSecondsOf', () => {
  it('knows the billable seconds of a charged project, in progress or ended, even one whose charges were all refunded', () => {
    expect(billableSecondsOf(project({ status: 'processing' }))).toBe(7);
    expect(billableSecondsOf(project({ status: 'partially_completed' }))).toBe(7);
    expect(billableSecondsOf(project({ status: 'failed', usage_state: 'refunded' }))).toBe(7);
  });

  it('is not ready before validation', () => {
    for (const status of ['awaiting_upload', 'validating'] as const) {
      expect(conflictCode(project({ status, usage_state: 'pending_validation', billable_seconds: null }))).toBe('409 project_not_ready');
    }
  });

  it('is not billable for a project that ended before its charge', () => {
    expect(conflictCode(project({ status: 'failed', usage_state: 'limit_exceeded', failure_code: 'max_billable_seconds_exceeded' }))).toBe('409 project_not_billable');
    expect(conflictCode(project({ status: 'failed', usage_state: 'released', billable_seconds: null, failure_code: 'upload_expired' }))).toBe('409 project_not_billable');
    expect(conflictCode(project({ status: 'failed', usage_state: 'pending_validation', billable_seconds: null }))).toBe('409 project_not_billable');
  });
});
