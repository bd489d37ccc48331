import type { ErrorObject } from 'ajv';
import { meetingImportRecordSchema, type MeetingImportRecord } from '../notes/meeting-import-record';
import { compileBody, pointerToParam } from '../shared/json-schema-validators';
import { findNul, findString, LONE_SURROGATE } from '../shared/text-checks';
import type { Db } from '../db/create-db';
import { findExistingUserIds, findMeetingOwners, replaceMeetingShares, upsertMeetings, type NewMeeting } from '../db/meetings';

// Imports a notes-product export. Everything is checked before anything is written, and the
// writes share one transaction, so a file either lands whole or not at all.

/** A rejected file: which record and which field, so the operator can fix the export. */
export class MeetingImportError extends Error {
  constructor(
    readonly index: number | null,
    readonly field: string | null,
    readonly reason: string,
  ) {
    super(index === null ? reason : `record ${index}, field ${field ?? '(record)'}: ${reason}`);
    this.name = 'MeetingImportError';
  }
}

// The body validator: no type coercion, unknown fields refused, defaults filled in.
const validateRecord = compileBody(meetingImportRecordSchema);

const BATCH = 1000; // 16 columns a row stays far below Postgres' 65,535 bind parameters

function describe(error: ErrorObject): { field: string; reason: string } {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') {
    return { field: pointerToParam(error.instancePath, String(params.additionalProperty)), reason: 'is not a known field' };
  }
  if (error.keyword === 'required') {
    return { field: pointerToParam(error.instancePath, String(params.missingProperty)), reason: 'is required' };
  }
  return { field: pointerToParam(error.instancePath) || '(record)', reason: error.message ?? 'is invalid' };
}

/** The file's records: a JSON array, or an object with a `meetings` array. */
export function parseMeetingFile(text: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new MeetingImportError(null, null, `the file is not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const records = Array.isArray(parsed) ? parsed : (parsed as { meetings?: unknown } | null)?.meetings;
  if (!Array.isArray(records)) throw new MeetingImportError(null, null, 'the file must hold a JSON array of meetings (or {"meetings": [...]})');
  return records;
}

/** Schema and cross-field checks; returns the records with defaults filled and ids lower-cased. */
export function validateMeetingRecords(input: readonly unknown[], ownerUserId: string): MeetingImportRecord[] {
  const seen = new Map<string, number>();
  return input.map((raw, index) => {
    const record = structuredClone(raw);
    if (!validateRecord(record)) {
      const { field, reason } = describe(validateRecord.errors![0]!);
      throw new MeetingImportError(index, field, reason);
    }
    // PostgreSQL text and jsonb both refuse U+0000, and jsonb a lone surrogate ("\ud800", which
    // JSON can spell but Unicode cannot): without these the whole import died on the database
    // error, naming neither the record nor the field.
    const nul = findNul(record, '');
    if (nul !== undefined) throw new MeetingImportError(index, nul || '(record)', 'must not contain the NUL character (U+0000)');
    const broken = findString(record, '', (text) => LONE_SURROGATE.test(text));
    if (broken !== undefined) throw new MeetingImportError(index, broken || '(record)', 'must be valid Unicode (it holds a lone surrogate)');
    record.id = record.id.toLowerCase();
    record.shared_with = [...new Set(record.shared_with.map((u) => u.toLowerCase()))];
    if (seen.has(record.id)) throw new MeetingImportError(index, 'id', `repeats record ${seen.get(record.id)}'s id`);
    seen.set(record.id, index);
    if (record.ended_at < record.started_at) throw new MeetingImportError(index, 'ended_at', 'is before started_at');
    const self = record.shared_with.indexOf(ownerUserId);
    if (self >= 0) throw new MeetingImportError(index, `shared_with[${self}]`, 'is the owner');
    return record;
  });
}

const toDate = (seconds: number) => new Date(seconds * 1000);
const toDateOrNull = (seconds: number | null) => (seconds === null ? null : toDate(seconds));

function toRow(ownerUserId: string, r: MeetingImportRecord): NewMeeting {
  return {
    id: r.id,
    owner_user_id: ownerUserId,
    name: r.name,
    started_at: toDate(r.started_at),
    ended_at: toDate(r.ended_at),
    duration_seconds: r.duration_seconds,
    tags: JSON.stringify(r.tags),
    sync_state: r.sync_state,
    hidden: r.hidden,
    deleted_at: toDateOrNull(r.deleted_at),
    transcript_text: r.transcript_text,
    transcript_segments: JSON.stringify(r.transcript_segments),
    notes: JSON.stringify(r.notes),
    summary: r.summary,
    summary_generated_at: toDateOrNull(r.summary_generated_at),
    updated_at: toDate(r.updated_at),
  };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Validates every record, then writes them all for `ownerUserId` in one transaction. A record
 * whose id already belongs to another user is refused rather than taken over.
 */
export async function importMeetings(db: Db, ownerUserId: string, input: readonly unknown[]): Promise<{ imported: number; shares: number }> {
  const records = validateMeetingRecords(input, ownerUserId);
  return db.transaction().execute(async (trx) => {
    if (!(await findExistingUserIds(trx, [ownerUserId])).has(ownerUserId)) {
      throw new MeetingImportError(null, null, `no user ${ownerUserId}`);
    }
    const index = new Map(records.map((r, i) => [r.id, i]));
    for (const batch of chunks(records, BATCH)) {
      for (const [id, owner] of await findMeetingOwners(
        trx,
        batch.map((r) => r.id),
      )) {
        if (owner !== ownerUserId) throw new MeetingImportError(index.get(id)!, 'id', 'belongs to a meeting of another user');
      }
    }
    const sharees = [...new Set(records.flatMap((r) => r.shared_with))];
    const known = new Set<string>();
    for (const batch of chunks(sharees, BATCH)) for (const id of await findExistingUserIds(trx, batch)) known.add(id);
    records.forEach((r, i) => {
      const unknown = r.shared_with.findIndex((u) => !known.has(u));
      if (unknown >= 0) throw new MeetingImportError(i, `shared_with[${unknown}]`, 'is not a known user');
    });

    let shares = 0;
    for (const batch of chunks(records, BATCH)) {
      await upsertMeetings(
        trx,
        batch.map((r) => toRow(ownerUserId, r)),
      );
      const batchShares = batch.flatMap((r) => r.shared_with.map((user_id) => ({ meeting_id: r.id, user_id })));
      await replaceMeetingShares(
        trx,
        batch.map((r) => r.id),
        batchShares,
      );
      shares += batchShares.length;
    }
    return { imported: records.length, shares };
  });
}
