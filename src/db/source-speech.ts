import type { Db } from './create-db';

// Whether a project's source steps left what its languages are planned from: a recorded
// transcript (docs/recognition.md#when-recognition-fails), and how many segments of speech it
// holds. Read by the language workflow before it plans lines, and by the publish guard.

export interface SourceTranscriptState {
  /** Somebody wrote the source transcript: the recognizer (even if it heard nothing), the customer, a reviewer. */
  recorded: boolean;
  /** Source segments the languages plan lines from. */
  segments: number;
  sourceLocale: string;
}

export async function loadSourceTranscriptState(db: Db, projectId: string): Promise<SourceTranscriptState | undefined> {
  const project = await db.selectFrom('projects').select(['transcript_source', 'source_locale']).where('id', '=', projectId).executeTakeFirst();
  if (!project) return undefined;
  const segments = await db
    .selectFrom('source_segments')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  // A project transcribed before source segments existed has its transcript only in this record.
  const machine = await db.selectFrom('transcript_segments').select('position').where('project_id', '=', projectId).limit(1).executeTakeFirst();
  return { recorded: project.transcript_source !== null || machine !== undefined, segments: Number(segments.n), sourceLocale: project.source_locale };
}

/** How many lines a language has planned. */
export async function countLanguageLines(db: Db, projectId: string, locale: string): Promise<number> {
  const row = await db
    .selectFrom('language_segments')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('project_id', '=', projectId)
    .where('locale', '=', locale)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
