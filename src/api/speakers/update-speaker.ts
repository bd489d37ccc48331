import type { Context } from 'koa';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database';
import { lockProject } from '../../db/projects';
import { findLanguage } from '../../db/project-languages';
import { findSpeaker, findSpeakerByLabel, listSpeakerSummaries, mergeSpeakers, renameSpeaker, setSpeakerVoice, touchSpeakers } from '../../db/speakers';
import { ERROR_TYPES } from '../../shared/error-codes';
import { normalizeSpeakerLabel } from '../../shared/speaker-labels';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { workspaceCaller } from '../middleware/authenticate';
import { bodyOf } from '../middleware/validate';
import { chooseVoices } from '../projects/choose-voices';
import { loadOwnProject } from '../projects/load-own-project';
import { lockEditableLanguage, lockEditableTranscript } from '../transcripts/edit-guard';
import { presentSpeaker } from './speaker-presenter';
import { mergeSpeakersBodySchema, SPEAKER_ID, updateSpeakerBodySchema } from './speakers.schema';

// Correcting the speakers (docs/speakers.md#correcting). Free, like every edit: a new label
// shows in the editor and the next render's captions; a new voice, a line moved to another
// speaker or a merge changes which voice speaks some lines, and the language's next
// regeneration speaks exactly those again and bills only their seconds.

type Trx = Transaction<Database>;

/** The `speaker_id` path parameter: a speaker of this project, else 404 (another tenant's looks the same). */
async function speakerParam(trx: Trx | AppDeps['db'], projectId: string, id: string | undefined) {
  const speaker = SPEAKER_ID.test(id ?? '') ? await findSpeaker(trx, projectId, id!) : undefined;
  if (!speaker) throw ApiError.notFound('speaker', 'speaker_id');
  return speaker;
}

async function answer(deps: AppDeps, ctx: Context, projectId: string, speakerId: string) {
  const speaker = (await listSpeakerSummaries(deps.db, projectId)).find((s) => s.id === speakerId)!;
  ctx.body = { data: presentSpeaker(speaker) };
}

/** PATCH …/speakers/{speaker_id}: `label` and/or `voices`. Checked whole before anything is written. */
export async function updateSpeaker(deps: AppDeps, ctx: Context): Promise<void> {
  const body = bodyOf(ctx, updateSpeakerBodySchema);
  const project = await loadOwnProject(deps, workspaceCaller(ctx), ctx.params.project_id!);
  await speakerParam(deps.db, project.id, ctx.params.speaker_id);
  if (body.label === undefined && Object.keys(body.voices ?? {}).length === 0) throw ApiError.invalid('missing_parameter', 'Send label or voices: what the speaker becomes.', 'label');
  const voices = body.voices ? chooseVoices(deps.capabilities.current(), project.target_locales, body.voices).languages : {};
  const label = body.label === undefined ? undefined : normalizeSpeakerLabel(body.label);
  const speakerId = await deps.db.transaction().execute(async (trx) => {
    const locked = await lockProject(trx, project.id);
    if (!locked || locked.deleted_at !== null) throw ApiError.notFound('project', 'project_id');
    // Read again under the lock: a new transcript may have replaced the speakers meanwhile.
    const speaker = await speakerParam(trx, project.id, ctx.params.speaker_id);
    if (label !== undefined && label !== speaker.label) {
      if (await findSpeakerByLabel(trx, project.id, label)) {
        throw new ApiError(
          409,
          ERROR_TYPES.conflict_error,
          'speaker_label_taken',
          `Another speaker is already called "${label}"; merge the two (POST …/speakers/{speaker_id}/merge) if they are one person.`,
          'label',
        );
      }
      await renameSpeaker(trx, speaker.id, label);
    }
    for (const [locale, voice] of Object.entries(voices).filter(([locale]) => body.voices![locale] !== undefined)) {
      // A language being dubbed or regenerated reads its voices: the change waits until it has finished.
      if (await findLanguage(trx, project.id, locale)) await lockEditableLanguage(trx, project.id, locale);
      await setSpeakerVoice(trx, { speaker_id: speaker.id, locale, voice, chosen_by: 'customer', variant: false });
    }
    await touchSpeakers(trx, project.id);
    return speaker.id;
  });
  await answer(deps, ctx, project.id, speakerId);
}

/** POST …/speakers/{speaker_id}/merge: every line of the speaker moves to `into_speaker_id`, and the speaker is gone. */
export async function mergeSpeaker(deps: AppDeps, ctx: Context): Promise<void> {
  const body = bodyOf(ctx, mergeSpeakersBodySchema);
  const project = await loadOwnProject(deps, workspaceCaller(ctx), ctx.params.project_id!);
  await speakerParam(deps.db, project.id, ctx.params.speaker_id);
  const into = SPEAKER_ID.test(body.into_speaker_id) ? await findSpeaker(deps.db, project.id, body.into_speaker_id) : undefined;
  if (!into) throw ApiError.notFound('speaker', 'into_speaker_id');
  if (into.id === ctx.params.speaker_id) throw ApiError.invalid('invalid_parameter', 'into_speaker_id is the speaker being merged: name the other speaker who keeps the lines.', 'into_speaker_id');
  await deps.db.transaction().execute(async (trx) => {
    // Which voice speaks lines changes: as for any transcript edit, no language may be working.
    await lockEditableTranscript(trx, project.id);
    const from = await speakerParam(trx, project.id, ctx.params.speaker_id);
    if (!(await findSpeaker(trx, project.id, into.id))) throw ApiError.notFound('speaker', 'into_speaker_id');
    await mergeSpeakers(trx, project.id, from.id, into.id);
    await touchSpeakers(trx, project.id);
  });
  await answer(deps, ctx, project.id, into.id);
}
