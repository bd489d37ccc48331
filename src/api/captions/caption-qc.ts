import { text } from 'node:stream/consumers';
import type { Context } from 'koa';
import { qcCues } from '../../captions/qc-cues';
import { captionRulesFor, type CaptionRules } from '../../captions/timed-text-rules';
import { findDeliverable } from '../../db/deliverables';
import { listLanguageSegments } from '../../db/language-segments';
import { findLanguageRevision } from '../../db/project-languages';
import { parseVtt } from '../../publish/captions';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { workspaceCaller } from '../middleware/authenticate';
import { loadOwnProject } from '../projects/load-own-project';
import { targetLocaleParam } from '../transcripts/path-params';
import { cueLineIds } from './cue-lines';

/**
 * GET /v1/dubbing/projects/{id}/languages/{locale}/qc (docs/captions.md#qc): the published
 * captions held to the project's timed-text preset, cue by cue. Judged from the WebVTT deliverable
 * itself, read back, so what QC judges is exactly what is downloaded (the SRT and TTML carry the
 * same cues); nothing is stored for it. Each cue names the line it shows, for the editor.
 */
export async function captionQc(deps: AppDeps, ctx: Context): Promise<void> {
  const project = await loadOwnProject(deps, workspaceCaller(ctx), ctx.params.project_id!);
  const locale = targetLocaleParam(ctx, project);
  const language = await findLanguageRevision(deps.db, project.id, locale);
  const vtt = language?.status === 'completed' ? await findDeliverable(deps.db, project.id, locale, 'subtitles', 'vtt') : undefined;
  if (!language || !vtt) {
    throw ApiError.conflict('language_not_completed', `The ${locale} dub is ${language?.status ?? 'not started'}; its captions are checked once it is completed.`);
  }
  const [cues, lines] = await Promise.all([text(await deps.blobStore.get(vtt.storage_key)).then((content) => parseVtt(content)), listLanguageSegments(deps.db, project.id, locale)]);
  const rules = captionRulesFor(project.caption_rules);
  const report = qcCues(cues, rules);
  const lineIds = cueLineIds(
    report.cues.map((c) => c.start),
    lines,
  );
  ctx.set('Cache-Control', 'private, no-cache');
  ctx.body = {
    data: {
      locale,
      revision: language.revision,
      preset: project.caption_rules,
      rules: presentRules(rules),
      cues: report.cues.map((cue, i) => ({ index: cue.index, start: cue.start, end: cue.end, text: cue.text, line_id: lineIds[i] ?? null, breaches: cue.breaches })),
      totals: report.totals,
    },
  };
}

/** The preset's numbers, as QC holds the cues to them. */
export function presentRules(rules: CaptionRules) {
  return {
    max_line_chars: rules.maxLineChars,
    max_lines: rules.maxLines,
    max_chars_per_second: rules.maxCharsPerSecond,
    min_duration_seconds: rules.minDurationSeconds,
    max_duration_seconds: rules.maxDurationSeconds,
    min_gap_seconds: rules.minGapSeconds,
    min_gap_frames: rules.minGapFrames,
    frame_rate: rules.frameRate,
  };
}
