import type { Context } from 'koa';
import { markLanguageSegmentsStale } from '../../db/language-segments';
import { listSourceSegments, replaceSourceSegments } from '../../db/source-segments';
import type { AppDeps } from '../app-deps';
import { workspaceCaller } from '../middleware/authenticate';
import { bodyOf } from '../middleware/validate';
import { loadOwnProject } from '../projects/load-own-project';
import { lockEditableTranscript } from './edit-guard';
import { readTranscriptInput } from './read-transcript-input';
import { sourceAudioUrl } from './media-links';
import { presentTranscript, speakerLabels } from './segment-presenter';
import { listSpeakers } from '../../db/speakers';
import { replaceTranscriptBodySchema } from './transcripts.schema';

/**
 * PUT …/transcript: the customer's own script replaces the source transcript
 * (docs/editing.md#bring-your-own-script). Before the upload it is what the dub is made from, and
 * no speech recognition runs; once the project has ended every language's lines go `stale`,
 * edited ones included (a new script supersedes lines made for the old one). The file is read
 * before anything is locked; a refused one writes nothing.
 */
export async function replaceTranscript(deps: AppDeps, ctx: Context): Promise<void> {
  const caller = workspaceCaller(ctx);
  const body = bodyOf(ctx, replaceTranscriptBodySchema);
  const project = await loadOwnProject(deps, caller, ctx.params.project_id!);
  // The duration is set once, at validation, which an editable project is past or not yet at.
  // A cue repeating a segment the transcript has now is not new text (its timing may be the machine's).
  const cues = readTranscriptInput(body, project.source_duration_seconds, 'content', await listSourceSegments(deps.db, project.id));
  const segments = await deps.db.transaction().execute(async (trx) => {
    const locked = await lockEditableTranscript(trx, project.id);
    const written = await replaceSourceSegments(trx, project.id, cues, 'supplied');
    if (locked.status !== 'awaiting_upload') await markLanguageSegmentsStale(trx, project.id);
    return written;
  });
  ctx.body = { data: presentTranscript(project.id, 'supplied', segments, await sourceAudioUrl(deps, project), speakerLabels(await listSpeakers(deps.db, project.id))) };
}
