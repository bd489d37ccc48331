import { segmentIdParam, targetLocaleParam } from './path-params';
import type { Context } from 'koa';
import { editLanguageSegmentText, findLanguageSegment, listLanguageSegments } from '../../db/language-segments';
import { syncReport } from '../../shared/sync-report';
import { cueTextProblem } from '../../shared/cue-text-bounds';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { workspaceCaller } from '../middleware/authenticate';
import { bodyOf } from '../middleware/validate';
import { loadOwnProject } from '../projects/load-own-project';
import { lockEditableLanguage } from './edit-guard';
import { clipUrl } from './media-links';
import { presentLanguageSegment } from './segment-presenter';
import { editLanguageSegmentBodySchema } from './transcripts.schema';

/**
 * PATCH …/languages/{locale}/segments/{segment_id}: a person's words for one line, which becomes
 * `edited`: no machine step overwrites it, and the next regeneration dubs it as written
 * (docs/editing.md#editing-is-free-regenerating-is-paid).
 */
export async function editLanguageSegment(deps: AppDeps, ctx: Context): Promise<void> {
  const caller = workspaceCaller(ctx);
  const { text } = bodyOf(ctx, editLanguageSegmentBodySchema);
  const project = await loadOwnProject(deps, caller, ctx.params.project_id!);
  const locale = targetLocaleParam(ctx, project);
  const segmentId = segmentIdParam(ctx);
  if (!(await findLanguageSegment(deps.db, project.id, locale, segmentId))) throw ApiError.notFound('segment', 'segment_id');
  if (text.trim() === '') throw ApiError.invalid('invalid_parameter', 'text must not be blank: a line says something.', 'text');
  const segment = await deps.db.transaction().execute(async (trx) => {
    await lockEditableLanguage(trx, project.id, locale);
    // A regeneration may have rebuilt the lines since the read above.
    const line = await findLanguageSegment(trx, project.id, locale, segmentId);
    if (!line) throw ApiError.notFound('segment', 'segment_id');
    // No more words than the line's time carries (src/shared/cue-text-bounds.ts); its timing is its source segment's.
    const bound = cueTextProblem({ startSeconds: line.start_seconds, endSeconds: line.end_seconds, text }, { personTimed: false });
    if (bound) throw ApiError.invalid('invalid_transcript', `The line ${bound.problem}.`, 'text');
    await editLanguageSegmentText(trx, segmentId, text.trim());
    return (await findLanguageSegment(trx, project.id, locale, segmentId))!;
  });
  // Its sync reads the lines around it (whether it ran into the next): the same as the list says.
  const lines = await listLanguageSegments(deps.db, project.id, locale);
  const sync = syncReport(lines).lines[lines.findIndex((l) => l.id === segment.id)] ?? null;
  ctx.body = { data: presentLanguageSegment(segment, await clipUrl(deps, project, segment), sync) };
}
