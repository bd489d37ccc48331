import type { Context } from 'koa';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database';
import { pinnedGlossaryEntries, setProjectGlossary, type GlossaryPin } from '../../db/glossaries';
import { markLinesStaleFor } from '../../db/language-segments';
import { listLanguageStatuses } from '../../db/project-languages';
import { listSourceSegments } from '../../db/source-segments';
import { changedTerms, localesAffected } from '../../shared/glossary-changes';
import type { GlossaryEntry } from '../../shared/glossary-entry';
import type { AppDeps } from '../app-deps';
import { workspaceCaller } from '../middleware/authenticate';
import { bodyOf } from '../middleware/validate';
import { loadOwnProject } from '../projects/load-own-project';
import { lockEditableTranscript } from '../transcripts/edit-guard';
import { projectGlossaryBodySchema } from './glossaries.schema';
import { resolveGlossaryPin, type ResolvedPin } from './glossary-pin';

// Changing a project's glossary (docs/glossaries.md#staleness): PUT …/glossary pins a version
// (another glossary, another version of the same), DELETE …/glossary pins none. Free, and
// nothing is dubbed again by itself: the lines whose source text holds a term whose entry the
// change concerns go `stale` in the languages where their rendering may differ, and the
// language's next regeneration (quoted, billed on those lines only) translates and speaks them
// again. `edited` lines keep the person's words, as after a source edit. The change waits for
// the project's work like a source edit (409 `project_busy` while it is validated, transcribed,
// dubbed, regenerated or re-dubbed): every language reads the glossary.

type Trx = Transaction<Database>;

/** Pins `next` on the project under its lock and stales what the change concerns; per locale, the lines it made stale. */
async function changeGlossary(trx: Trx, projectId: string, next: ResolvedPin | null): Promise<Record<string, number>> {
  const locked = await lockEditableTranscript(trx, projectId);
  const locales = [...new Set([...locked.target_locales, ...(await listLanguageStatuses(trx, projectId)).map((l) => l.locale)])].sort();
  const staleCounts = Object.fromEntries(locales.map((locale) => [locale, 0]));
  const samePin = next === null ? locked.glossary_id === null : locked.glossary_id === next.pin.id && locked.glossary_version === next.pin.version;
  if (samePin) return staleCounts;
  const before: GlossaryEntry[] = await pinnedGlossaryEntries(trx, projectId);
  const after = next?.entries ?? [];
  const changed = changedTerms(before, after);
  const targets = changed.length
    ? (await listSourceSegments(trx, projectId)).flatMap((segment) => localesAffected(segment.text, before, after, locales, changed).map((locale) => ({ sourceSegmentId: segment.id, locale })))
    : [];
  for (const locale of await markLinesStaleFor(trx, projectId, targets)) staleCounts[locale] = (staleCounts[locale] ?? 0) + 1;
  await setProjectGlossary(trx, projectId, next?.pin ?? null);
  return staleCounts;
}

function answer(ctx: Context, projectId: string, pin: GlossaryPin | null, staleLines: Record<string, number>): void {
  ctx.body = { data: { project_id: projectId, glossary: pin, stale_lines: staleLines } };
}

/** PUT /v1/dubbing/projects/{project_id}/glossary: `{id, version?}`, the latest version when none is named. */
export async function putProjectGlossary(deps: AppDeps, ctx: Context): Promise<void> {
  const caller = workspaceCaller(ctx);
  const body = bodyOf(ctx, projectGlossaryBodySchema);
  const project = await loadOwnProject(deps, caller, ctx.params.project_id!);
  const resolved = await resolveGlossaryPin(deps.db, caller.workspaceId, project.source_locale, body, '');
  const stale = await deps.db.transaction().execute((trx) => changeGlossary(trx, project.id, resolved));
  answer(ctx, project.id, resolved.pin, stale);
}

/** DELETE /v1/dubbing/projects/{project_id}/glossary: the project pins none from now on. */
export async function deleteProjectGlossary(deps: AppDeps, ctx: Context): Promise<void> {
  const project = await loadOwnProject(deps, workspaceCaller(ctx), ctx.params.project_id!);
  const stale = await deps.db.transaction().execute((trx) => changeGlossary(trx, project.id, null));
  answer(ctx, project.id, null, stale);
}
