import { segmentIdParam } from './path-params';
import type { Context } from 'koa';
import { listSourceSegmentLines, markSourceSegmentLinesStale } from '../../db/language-segments';
import { editSourceSegment as writeSegmentEdit, findNeighbourSegments, findSourceSegment } from '../../db/source-segments';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { workspaceCaller } from '../middleware/authenticate';
import { bodyOf } from '../middleware/validate';
import { loadOwnProject } from '../projects/load-own-project';
import { lockEditableTranscript } from './edit-guard';
import { findSpeaker, listSpeakers, setSegmentSpeaker } from '../../db/speakers';
import { applySegmentEdit, refuseEditedLinesOverBound, segmentChanged, timingChanged } from './segment-edit';
import { presentSourceSegment, speakerLabels } from './segment-presenter';
import { editSourceSegmentBodySchema } from './transcripts.schema';

/**
 * PATCH …/transcript/segments/{segment_id}: the customer fixes one segment's words or timing
 * (docs/editing.md#editing-is-free-regenerating-is-paid). Free: its language lines go `stale`
 * for the next (paid) regeneration, except `edited` ones, which keep the person's words and take
 * the new timing. The transcript becomes `edited`. An edit that changes nothing changes nothing.
 */
export async function editSourceSegment(deps: AppDeps, ctx: Context): Promise<void> {
  const caller = workspaceCaller(ctx);
  const body = bodyOf(ctx, editSourceSegmentBodySchema);
  const project = await loadOwnProject(deps, caller, ctx.params.project_id!);
  const segmentId = segmentIdParam(ctx);
  // An unknown segment is a 404 whatever the project is doing.
  if (!(await findSourceSegment(deps.db, project.id, segmentId))) throw ApiError.notFound('segment', 'segment_id');
  const segment = await deps.db.transaction().execute(async (trx) => {
    // Read again under the lock: a replaced transcript or a neighbour's edit commits first.
    await lockEditableTranscript(trx, project.id);
    const current = await findSourceSegment(trx, project.id, segmentId);
    if (!current) throw ApiError.notFound('segment', 'segment_id');
    const edited = applySegmentEdit(current, body, await findNeighbourSegments(trx, project.id, current.position), project.source_duration_seconds);
    // Another speaker: the words stay, so no line goes stale; each line's voice is now the new
    // speaker's, which a regeneration speaks again and bills (docs/speakers.md#correcting).
    if (body.speaker_id !== undefined && body.speaker_id !== current.speaker_id) {
      if (!(await findSpeaker(trx, project.id, body.speaker_id))) throw ApiError.notFound('speaker', 'speaker_id');
      await setSegmentSpeaker(trx, current.id, body.speaker_id);
    }
    if (!segmentChanged(current, edited)) return (await findSourceSegment(trx, project.id, segmentId))!;
    if (timingChanged(current, edited)) refuseEditedLinesOverBound(await listSourceSegmentLines(trx, current.id), edited, body);
    const written = await writeSegmentEdit(trx, current, edited);
    await markSourceSegmentLinesStale(trx, current.id, timingChanged(current, edited) ? edited : null);
    return written;
  });
  ctx.body = { data: presentSourceSegment(segment, speakerLabels(await listSpeakers(deps.db, project.id))) };
}
