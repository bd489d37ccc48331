import type { Transaction } from 'kysely';
import type { Database } from '../../db/database';
import { findRunningRegeneration, listRunningRegenerationLocales } from '../../db/language-regenerations';
import { findRedubRevision, listRedubbingLocales } from '../../db/language-renders';
import { lockProject, type Project } from '../../db/projects';
import { lockLanguageRevision, lockLanguageStatuses } from '../../db/project-languages';
import { ApiError } from '../api-error';

// When the words may change (docs/editing.md#reading-and-editing). The source transcript is what
// recognition writes and every language is made from, so it changes only while no step reads or
// writes it: before the upload, or once the project and each of its languages have ended and no
// regeneration or re-dub runs. A language's line changes while that language is neither dubbed,
// regenerated nor re-dubbed from a verified transcript. The checks run under row locks, held
// until the edit commits, so a language that starts, regenerates or is re-dubbed waits for the
// edit rather than reading half of it.

type Trx = Transaction<Database>;

const ENDED = new Set(['completed', 'failed']);

/** The project row locked, once its source transcript may change; else 409 `project_busy`. */
export async function lockEditableTranscript(trx: Trx, projectId: string): Promise<Project> {
  const project = await lockProject(trx, projectId);
  // Deleted in the moment since it was loaded: its lines are going, and no edit is written for it.
  if (!project || project.deleted_at !== null) throw ApiError.notFound('project', 'project_id');
  if (project.status === 'validating' || project.status === 'processing') {
    const doing = project.status === 'validating' ? 'being validated' : project.phase === 'transcribing' ? 'being transcribed' : 'being dubbed';
    throw ApiError.conflict('project_busy', `The project is ${doing}; its transcript can change once it has finished.`);
  }
  const working = (await lockLanguageStatuses(trx, projectId)).filter((l) => !ENDED.has(l.status));
  if (working.length)
    throw ApiError.conflict(
      'project_busy',
      `${working.map((l) => l.locale).join(', ')} ${working.length === 1 ? 'is' : 'are'} being dubbed; the transcript can change once ${working.length === 1 ? 'it has' : 'they have'} finished.`,
    );
  const regenerating = await listRunningRegenerationLocales(trx, projectId);
  if (regenerating.length)
    throw ApiError.conflict('project_busy', `${regenerating.join(', ')} ${regenerating.length === 1 ? 'is' : 'are'} being regenerated; the transcript can change once that has finished.`);
  const redubbing = await listRedubbingLocales(trx, projectId);
  if (redubbing.length)
    throw ApiError.conflict(
      'project_busy',
      `${redubbing.join(', ')} ${redubbing.length === 1 ? 'is' : 'are'} being dubbed again from the verified transcript; the transcript can change once that has finished.`,
    );
  return project;
}

/** Locks the language row once its lines may change; else 409 `language_busy`. */
export async function lockEditableLanguage(trx: Trx, projectId: string, locale: string): Promise<void> {
  const language = await lockLanguageRevision(trx, projectId, locale);
  if (!ENDED.has(language.status)) throw ApiError.conflict('language_busy', `${locale} is being dubbed (${language.status}); its lines can change once it has finished.`);
  if (await findRunningRegeneration(trx, projectId, locale)) throw ApiError.conflict('language_busy', `${locale} is being regenerated; its lines can change once that has finished.`);
  if ((await findRedubRevision(trx, projectId, locale)) !== null)
    throw ApiError.conflict('language_busy', `${locale} is being dubbed again from the verified transcript; its lines can change once that has finished.`);
}
