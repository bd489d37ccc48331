import Router from '@koa/router';
import { findOwnedMeeting, listOwnedMeetings, type MeetingDetail, type MeetingMetadata } from '../../db/meetings';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { authenticate } from '../middleware/authenticate';
import { queryOf, validateQuery } from '../middleware/validate';
import { UUID_PATTERN } from '../../notes/meeting-import-record';
import { getMeetingQuerySchema, listMeetingsQuerySchema, MEETINGS_MAX_OFFSET } from './notes.schema';
import { notesAccessOf, requireNotesAccess } from './require-notes-access';

const UUID = new RegExp(UUID_PATTERN);

const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

function metadata(m: MeetingMetadata) {
  return {
    id: m.id,
    name: m.name,
    started_at: unixSeconds(m.started_at),
    ended_at: unixSeconds(m.ended_at),
    duration_seconds: m.duration_seconds,
    tags: m.tags,
    updated_at: unixSeconds(m.updated_at),
  };
}

function detail(m: MeetingDetail) {
  return {
    ...metadata(m),
    transcript_text: m.transcript_text,
    transcript_segments: m.transcript_segments,
    notes: m.notes,
    summary: m.summary,
    summary_generated_at: m.summary_generated_at === null ? null : unixSeconds(m.summary_generated_at),
  };
}

/** GET /v1/notes/meetings[/{id}] — the caller's own synced meetings, read-only (docs/notes-api.md). */
export function notesRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const router = new Router();
  const auth = authenticate(deps);

  router.get('/v1/notes/meetings', auth, requireNotesAccess(), validateQuery(listMeetingsQuerySchema), async (ctx) => {
    const { ownerUserId } = notesAccessOf(ctx);
    const { limit, offset } = queryOf(ctx, listMeetingsQuerySchema);
    const { rows, more } = await listOwnedMeetings(db, ownerUserId, { limit, offset });
    // A next_offset the offset rule would refuse is no next page: following has_more must
    // always end cleanly, so listing stops at the largest accepted offset.
    const nextOffset = offset + limit;
    const hasMore = more && nextOffset <= MEETINGS_MAX_OFFSET;
    ctx.body = {
      data: rows.map(metadata),
      page: { limit, offset, has_more: hasMore, next_offset: hasMore ? nextOffset : null },
    };
  });

  router.get('/v1/notes/meetings/:meeting_id', auth, requireNotesAccess(), validateQuery(getMeetingQuerySchema), async (ctx) => {
    const { ownerUserId } = notesAccessOf(ctx);
    const meetingId = String(ctx.params.meeting_id);
    // A malformed id is answered exactly like an unknown one (and never reaches Postgres,
    // whose uuid cast would fail with a 500).
    const meeting = UUID.test(meetingId) ? await findOwnedMeeting(db, ownerUserId, meetingId) : undefined;
    if (!meeting) throw ApiError.notFound('meeting');
    ctx.body = { data: detail(meeting) };
  });

  return router;
}
