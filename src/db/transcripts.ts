import type { Selectable } from 'kysely';
import type { Db } from './create-db';
import { listTranscript } from './deliverables';
import type { TranscriptKind } from './projects';

// The transcript a language is translated from: the reviewer's verified one when the project has
// it, else the machine's. The machine transcript stays as recognized (reviewers export it).

export interface VerifiedTranscriptSegmentTable {
  project_id: string;
  position: number;
  start_seconds: number;
  end_seconds: number;
  text: string;
}

export type VerifiedTranscriptSegment = Selectable<VerifiedTranscriptSegmentTable>;

export interface TimedText {
  start_seconds: number;
  end_seconds: number;
  text: string;
}

export interface CurrentTranscript {
  kind: TranscriptKind;
  segments: TimedText[];
}

/** Replaces the verified transcript as a whole, so a retried step never leaves a mix. */
export async function replaceVerifiedTranscript(trx: Db, projectId: string, segments: TimedText[]): Promise<void> {
  await trx.deleteFrom('verified_transcript_segments').where('project_id', '=', projectId).execute();
  if (segments.length) {
    await trx.insertInto('verified_transcript_segments').values(segments.map((s, position) => ({ project_id: projectId, position, start_seconds: s.start_seconds, end_seconds: s.end_seconds, text: s.text }))).execute();
  }
}

export async function listVerifiedTranscript(db: Db, projectId: string): Promise<VerifiedTranscriptSegment[]> {
  return db.selectFrom('verified_transcript_segments').selectAll().where('project_id', '=', projectId).orderBy('position').execute();
}

/**
 * Verified only once the review says so: the segments and the `verified` status commit together,
 * so a language that reads `verified` here is re-dubbed from nothing older.
 */
export async function loadCurrentTranscript(db: Db, projectId: string): Promise<CurrentTranscript> {
  const review = await db.selectFrom('transcript_reviews').select('status').where('project_id', '=', projectId).executeTakeFirst();
  if (review?.status === 'verified') return { kind: 'verified', segments: await listVerifiedTranscript(db, projectId) };
  return { kind: 'machine', segments: await listTranscript(db, projectId) };
}
