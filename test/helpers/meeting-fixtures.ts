import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/create-db';
import type { MeetingNote, MeetingTag, SyncState, TranscriptSegment } from '../../src/db/meetings';

// Meetings written straight into the table (the import has its own tests), so each test states
// exactly the rows it lists or hides.

export interface MeetingFixture {
  id?: string;
  name?: string;
  startedAt: number;
  durationSeconds?: number;
  updatedAt?: number;
  tags?: MeetingTag[];
  syncState?: SyncState;
  hidden?: boolean;
  deletedAt?: number | null;
  transcriptText?: string;
  transcriptSegments?: TranscriptSegment[];
  notes?: MeetingNote[];
  summary?: string | null;
  summaryGeneratedAt?: number | null;
  sharedWith?: string[];
}

const date = (seconds: number) => new Date(seconds * 1000);

export async function insertMeeting(db: Db, ownerUserId: string, m: MeetingFixture): Promise<string> {
  const id = m.id ?? randomUUID();
  const duration = m.durationSeconds ?? 1800;
  await db
    .insertInto('meetings')
    .values({
      id,
      owner_user_id: ownerUserId,
      name: m.name ?? `Meeting ${id.slice(0, 8)}`,
      started_at: date(m.startedAt),
      ended_at: date(m.startedAt + duration),
      duration_seconds: duration,
      tags: JSON.stringify(m.tags ?? []),
      sync_state: m.syncState ?? 'synced',
      hidden: m.hidden ?? false,
      deleted_at: m.deletedAt == null ? null : date(m.deletedAt),
      transcript_text: m.transcriptText ?? '',
      transcript_segments: JSON.stringify(m.transcriptSegments ?? []),
      notes: JSON.stringify(m.notes ?? []),
      summary: m.summary ?? null,
      summary_generated_at: m.summaryGeneratedAt == null ? null : date(m.summaryGeneratedAt),
      updated_at: date(m.updatedAt ?? m.startedAt + duration),
    })
    .execute();
  for (const userId of m.sharedWith ?? []) {
    await db.insertInto('meeting_shares').values({ meeting_id: id, user_id: userId }).execute();
  }
  return id;
}

/** The API's order: started_at DESC, then id DESC (Postgres compares uuids bytewise, as hex text sorts). */
export function listingOrder<T extends { id: string; startedAt: number }>(rows: T[]): T[] {
  return [...rows].sort((a, b) => b.startedAt - a.startedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}
