import { sql, type ColumnType, type Generated, type Insertable, type Selectable } from 'kysely';
import type { Db } from './create-db';

export interface MeetingTag {
  id: string;
  name: string;
}

export interface TranscriptSegment {
  speaker: string;
  start_seconds: number;
  end_seconds: number;
  text: string;
}

export interface MeetingNote {
  id: string;
  text: string;
  /** Unix seconds, as the notes product sends it. */
  created_at: number;
}

export type SyncState = 'synced' | 'local_only';

// jsonb columns: pg parses them on read; on write they are sent as JSON text.
type Json<T> = ColumnType<T, string | undefined, string>;

export interface MeetingTable {
  id: Generated<string>;
  owner_user_id: string;
  name: string;
  started_at: Date;
  ended_at: Date;
  duration_seconds: number;
  tags: Json<MeetingTag[]>;
  sync_state: ColumnType<SyncState, SyncState | undefined, SyncState>;
  hidden: ColumnType<boolean, boolean | undefined, boolean>;
  deleted_at: Date | null;
  transcript_text: ColumnType<string, string | undefined, string>;
  transcript_segments: Json<TranscriptSegment[]>;
  notes: Json<MeetingNote[]>;
  summary: string | null;
  summary_generated_at: Date | null;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  created_at: ColumnType<Date, never, never>;
}

export interface MeetingShareTable {
  meeting_id: string;
  user_id: string;
  created_at: ColumnType<Date, never, never>;
}

export type MeetingRow = Selectable<MeetingTable>;
export type NewMeeting = Insertable<MeetingTable>;

export const MEETING_METADATA_COLUMNS = ['id', 'name', 'started_at', 'ended_at', 'duration_seconds', 'tags', 'updated_at'] as const;
export type MeetingMetadata = Pick<MeetingRow, (typeof MEETING_METADATA_COLUMNS)[number]>;
export type MeetingDetail = MeetingMetadata & Pick<MeetingRow, 'transcript_text' | 'transcript_segments' | 'notes' | 'summary' | 'summary_generated_at'>;

// Written with literals, never parameters, so the planner can prove it matches the predicate of
// meetings_owner_listed_idx and use that partial index. Keep the two in step.
export const LISTED = sql<boolean>`sync_state = 'synced' and deleted_at is null and not hidden`;

/**
 * The page query, `limit + 1` rows so the caller learns whether a row follows.
 *
 * Deferred join: the inner query walks only the partial index (index-only scan: owner,
 * started_at, id) past `offset` entries and keeps the page's ids; only those rows are then read
 * from the table. The naive form fetches every skipped row from the heap just to throw it away.
 */
export function ownedMeetingsPageQuery(db: Db, ownerUserId: string, page: { limit: number; offset: number }) {
  const ids = db
    .selectFrom('meetings')
    .select(['id', 'started_at'])
    .where('owner_user_id', '=', ownerUserId)
    .where(LISTED)
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .offset(page.offset)
    .limit(page.limit + 1)
    .as('page');
  return db
    .selectFrom(ids)
    .innerJoin('meetings as m', 'm.id', 'page.id')
    .select(MEETING_METADATA_COLUMNS.map((c) => `m.${c}` as const))
    .orderBy('page.started_at', 'desc')
    .orderBy('page.id', 'desc');
}

/** One page of the owner's listed meetings, newest first, plus whether a row follows it. */
export async function listOwnedMeetings(db: Db, ownerUserId: string, page: { limit: number; offset: number }): Promise<{ rows: MeetingMetadata[]; more: boolean }> {
  const rows = await ownedMeetingsPageQuery(db, ownerUserId, page).execute();
  return { rows: rows.slice(0, page.limit), more: rows.length > page.limit };
}

/** The owner's listed meeting with its saved content; undefined for anything not listed to them. */
export async function findOwnedMeeting(db: Db, ownerUserId: string, meetingId: string): Promise<MeetingDetail | undefined> {
  return db
    .selectFrom('meetings')
    .select([...MEETING_METADATA_COLUMNS, 'transcript_text', 'transcript_segments', 'notes', 'summary', 'summary_generated_at'])
    .where('id', '=', meetingId)
    .where('owner_user_id', '=', ownerUserId)
    .where(LISTED)
    .executeTakeFirst();
}

/** Owners of the given ids that already exist, so an import can refuse to take one over. */
export async function findMeetingOwners(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('meetings').select(['id', 'owner_user_id']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.owner_user_id]));
}

/**
 * Inserts or replaces meetings by id (a re-import of the same export is an update, not a
 * duplicate). The caller owns the transaction and has checked ownership.
 */
export async function upsertMeetings(db: Db, meetings: NewMeeting[]): Promise<void> {
  if (meetings.length === 0) return;
  await db
    .insertInto('meetings')
    .values(meetings)
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        started_at: eb.ref('excluded.started_at'),
        ended_at: eb.ref('excluded.ended_at'),
        duration_seconds: eb.ref('excluded.duration_seconds'),
        tags: eb.ref('excluded.tags'),
        sync_state: eb.ref('excluded.sync_state'),
        hidden: eb.ref('excluded.hidden'),
        deleted_at: eb.ref('excluded.deleted_at'),
        transcript_text: eb.ref('excluded.transcript_text'),
        transcript_segments: eb.ref('excluded.transcript_segments'),
        notes: eb.ref('excluded.notes'),
        summary: eb.ref('excluded.summary'),
        summary_generated_at: eb.ref('excluded.summary_generated_at'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

/** Makes the meetings' share lists exactly `shares` (the export is the source of truth). */
export async function replaceMeetingShares(db: Db, meetingIds: readonly string[], shares: { meeting_id: string; user_id: string }[]): Promise<void> {
  if (meetingIds.length === 0) return;
  await db.deleteFrom('meeting_shares').where('meeting_id', 'in', meetingIds).execute();
  // Batches keep each statement under Postgres' 65,535 bind parameters.
  for (let i = 0; i < shares.length; i += 10_000) {
    await db
      .insertInto('meeting_shares')
      .values(shares.slice(i, i + 10_000))
      .execute();
  }
}

export async function findExistingUserIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('users').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}
