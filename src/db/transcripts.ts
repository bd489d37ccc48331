import type { Selectable } from 'kysely';
import type { Db } from './create-db';
import { listTranscript } from './deliverables';
import type { TranscriptKind } from './project-languages';
import { listSourceSegments, replaceSourceSegments, type SourceSegment } from './source-segments';

// The transcript a language is translated from: the source segments (docs/editing.md), whoever
// wrote them. The machine transcript stays as recognized (reviewers export it), and the verified
// one as the reviewer submitted it: records, not what the dub is made from.

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
  /** `verified` once a review verified the project's transcript: what a re-dub plans from. */
  kind: TranscriptKind;
  segments: SourceSegment[];
}

/** Replaces the verified transcript as a whole, so a retried step never leaves a mix. */
export async function replaceVerifiedTranscript(trx: Db, projectId: string, segments: TimedText[]): Promise<void> {
  await trx.deleteFrom('verified_transcript_segments').where('project_id', '=', projectId).execute();
  if (segments.length) {
    await trx
      .insertInto('verified_transcript_segments')
      .values(segments.map((s, position) => ({ project_id: projectId, position, start_seconds: s.start_seconds, end_seconds: s.end_seconds, text: s.text })))
      .execute();
  }
}

export async function listVerifiedTranscript(db: Db, projectId: string): Promise<VerifiedTranscriptSegment[]> {
  return db.selectFrom('verified_transcript_segments').selectAll().where('project_id', '=', projectId).orderBy('position').execute();
}

/**
 * Verified only once the review says so: the verified segments, the review's status and the
 * source segments commit together (review.activities.ts), so a language that reads `verified`
 * here is re-dubbed from nothing older.
 */
export async function loadCurrentTranscript(db: Db, projectId: string): Promise<CurrentTranscript> {
  const review = await db.selectFrom('transcript_reviews').select('status').where('project_id', '=', projectId).executeTakeFirst();
  return { kind: review?.status === 'verified' ? 'verified' : 'machine', segments: await listSourceSegments(db, projectId) };
}

/**
 * A project transcribed before source segments existed has its transcript only in the records
 * (the verified one, else the machine's): those become its source segments, once, so its
 * languages can be translated, edited and regenerated like any other. A project whose source
 * segments were ever written (`transcript_source` set) is left alone.
 */
export async function adoptRecordedTranscript(trx: Db, projectId: string): Promise<void> {
  const project = await trx.selectFrom('projects').select('transcript_source').where('id', '=', projectId).forUpdate().executeTakeFirst();
  if (!project || project.transcript_source !== null) return;
  const review = await trx.selectFrom('transcript_reviews').select('status').where('project_id', '=', projectId).executeTakeFirst();
  const verified = review?.status === 'verified';
  const recorded = verified ? await listVerifiedTranscript(trx, projectId) : await listTranscript(trx, projectId);
  if (recorded.length === 0) return;
  await replaceSourceSegments(trx, projectId, recorded, verified ? 'verified' : 'machine');
}
