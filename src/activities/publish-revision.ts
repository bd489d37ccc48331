import type { Db } from '../db/create-db';
import { upsertDeliverable } from '../db/deliverables';
import { listLanguageSegments, recordRenderedLines } from '../db/language-segments';
import { updateLanguage, type LanguageChanges } from '../db/project-languages';
import type { RenderedDub } from '../pipeline/render-dub';
import { syncReport } from '../shared/sync-report';

// What every render publishes, inside the caller's transaction: the deliverable rows switch to
// the revision's files and each line records what the revision plays for it, together, so a
// download (or a later re-render) sees the old revision or the new one, never a mix.

export async function publishRendered(
  trx: Db,
  step: { projectId: string; locale: string },
  rendered: Pick<RenderedDub, 'files' | 'lines' | 'driftSeconds'> & { quality?: RenderedDub['quality']; captionBreaches?: number; loudness?: RenderedDub['loudness'] },
  options: { settleStale: boolean; language?: LanguageChanges },
): Promise<void> {
  for (const file of rendered.files) {
    await upsertDeliverable(trx, {
      project_id: step.projectId,
      locale: step.locale,
      type: file.type,
      format: file.format,
      storage_key: file.key,
      content_type: file.contentType,
      size_bytes: file.sizeBytes,
    });
  }
  await recordRenderedLines(trx, step.projectId, step.locale, rendered.lines, { settleStale: options.settleStale });
  // The project view's sync summary (docs/editing.md#sync-report), from the placements just recorded.
  const { totals: sync } = syncReport(await listLanguageSegments(trx, step.projectId, step.locale));
  await updateLanguage(trx, step.projectId, step.locale, {
    ...options.language,
    drift_seconds: rendered.driftSeconds,
    dub_quality: rendered.quality ? JSON.stringify(rendered.quality) : null,
    // The project view's caption_qc (docs/captions.md#qc): counted once, as published, not per GET.
    caption_breaches: rendered.captionBreaches ?? null,
    sync_report: sync ? JSON.stringify(sync) : null,
    // The project view's loudness (docs/audio.md#report): as the delivered mix measured.
    loudness_report: rendered.loudness ? JSON.stringify(rendered.loudness) : null,
  });
}
