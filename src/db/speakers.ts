import { sql, type ColumnType, type Selectable } from 'kysely';
import type { Db } from './create-db';
import { newSegmentId } from './source-segments';
import type { OfferedVoice } from '../shared/offered-voices';
import { chooseSpeakerVoices } from '../shared/speaker-voices';

// A project's speakers and the voice each speaks with per target language (docs/speakers.md).
// Speakers belong to the source transcript: whoever writes it (the recognizer with the
// diarizer, a supplied file's voice spans, a reviewer) writes its speakers in the same
// transaction (src/db/source-segments.ts), and a speaker left without a segment is gone.

export interface ProjectSpeakerTable {
  id: string;
  project_id: string;
  /** 1-based, in order of first appearance. */
  position: number;
  label: string;
  median_pitch_hz: number | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export type VoiceChooser = 'customer' | 'machine';

export interface SpeakerVoiceTable {
  speaker_id: string;
  locale: string;
  voice: string;
  chosen_by: VoiceChooser;
  variant: ColumnType<boolean, boolean | undefined, boolean>;
}

export type ProjectSpeaker = Selectable<ProjectSpeakerTable>;
export type SpeakerVoice = Selectable<SpeakerVoiceTable>;

/** A speaker with what the transcript says of them: how many segments, how many seconds. */
export interface SpeakerSummary extends ProjectSpeaker {
  segments: number;
  speech_seconds: number;
  voices: SpeakerVoice[];
}

export const newSpeakerId = () => newSegmentId('spk');

export async function listSpeakers(db: Db, projectId: string): Promise<ProjectSpeaker[]> {
  return db.selectFrom('project_speakers').selectAll().where('project_id', '=', projectId).orderBy('position').execute();
}

/** Every speaker with their segment counts and voices, in position order: what GET …/speakers answers. */
export async function listSpeakerSummaries(db: Db, projectId: string): Promise<SpeakerSummary[]> {
  const [speakers, counts, voices] = await Promise.all([
    listSpeakers(db, projectId),
    db
      .selectFrom('source_segments')
      .select(['speaker_id', sql<number>`count(*)::int`.as('segments'), sql<number>`coalesce(sum(end_seconds - start_seconds), 0)::float8`.as('speech_seconds')])
      .where('project_id', '=', projectId)
      .groupBy('speaker_id')
      .execute(),
    listSpeakerVoices(db, projectId),
  ]);
  return speakers.map((speaker) => {
    const count = counts.find((c) => c.speaker_id === speaker.id);
    return { ...speaker, segments: count?.segments ?? 0, speech_seconds: count?.speech_seconds ?? 0, voices: voices.filter((v) => v.speaker_id === speaker.id) };
  });
}

export async function listSpeakerVoices(db: Db, projectId: string, locale?: string): Promise<SpeakerVoice[]> {
  let q = db.selectFrom('speaker_voices as v').innerJoin('project_speakers as s', 's.id', 'v.speaker_id').selectAll('v').where('s.project_id', '=', projectId);
  if (locale !== undefined) q = q.where('v.locale', '=', locale);
  return q.orderBy('s.position').orderBy('v.locale').execute();
}

/** One speaker of the project; another project's speaker is not found. */
export async function findSpeaker(db: Db, projectId: string, speakerId: string): Promise<ProjectSpeaker | undefined> {
  return db.selectFrom('project_speakers').selectAll().where('project_id', '=', projectId).where('id', '=', speakerId).executeTakeFirst();
}

export async function findSpeakerByLabel(db: Db, projectId: string, label: string): Promise<ProjectSpeaker | undefined> {
  return db.selectFrom('project_speakers').selectAll().where('project_id', '=', projectId).where('label', '=', label).executeTakeFirst();
}

export async function insertSpeakers(trx: Db, projectId: string, speakers: readonly { label: string; position: number; median_pitch_hz?: number | null }[]): Promise<ProjectSpeaker[]> {
  if (!speakers.length) return [];
  return trx
    .insertInto('project_speakers')
    .values(speakers.map((s) => ({ id: newSpeakerId(), project_id: projectId, position: s.position, label: s.label, median_pitch_hz: s.median_pitch_hz ?? null })))
    .returningAll()
    .execute();
}

export async function renameSpeaker(trx: Db, speakerId: string, label: string): Promise<void> {
  await trx.updateTable('project_speakers').set({ label }).where('id', '=', speakerId).execute();
}

export async function setSpeakerPitch(trx: Db, speakerId: string, medianPitchHz: number | null): Promise<void> {
  await trx.updateTable('project_speakers').set({ median_pitch_hz: medianPitchHz }).where('id', '=', speakerId).execute();
}

/** The speaker's voice in one language, chosen by the customer or the machine. */
export async function setSpeakerVoice(trx: Db, voice: SpeakerVoice): Promise<void> {
  await trx
    .insertInto('speaker_voices')
    .values(voice)
    .onConflict((oc) => oc.columns(['speaker_id', 'locale']).doUpdateSet({ voice: voice.voice, chosen_by: voice.chosen_by, variant: voice.variant }))
    .execute();
}

/** Moves every segment of `fromId` to `intoId` and removes `fromId` (its voices go with it). */
export async function mergeSpeakers(trx: Db, projectId: string, fromId: string, intoId: string): Promise<void> {
  await trx
    .updateTable('source_segments')
    .set({ speaker_id: intoId, updated_at: sql<Date>`now()` })
    .where('project_id', '=', projectId)
    .where('speaker_id', '=', fromId)
    .execute();
  await removeSpeakers(trx, projectId, [fromId]);
}

/** Removes speakers and numbers the rest 1… again in their order (the position constraint is checked at commit). */
export async function removeSpeakers(trx: Db, projectId: string, speakerIds: readonly string[]): Promise<void> {
  if (speakerIds.length) await trx.deleteFrom('project_speakers').where('project_id', '=', projectId).where('id', 'in', speakerIds).execute();
  await sql`
    update project_speakers s set position = ranked.rank
    from (select id, row_number() over (order by position, created_at, id)::int as rank from project_speakers where project_id = ${projectId}) ranked
    where s.id = ranked.id and s.position <> ranked.rank`.execute(trx);
}

/** Speakers no segment names any more: a new transcript superseded them. */
export async function removeSilentSpeakers(trx: Db, projectId: string): Promise<void> {
  const silent = await trx
    .selectFrom('project_speakers as s')
    .select('s.id')
    .where('s.project_id', '=', projectId)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('source_segments as g').select('g.id').whereRef('g.speaker_id', '=', 's.id'))))
    .execute();
  if (silent.length)
    await removeSpeakers(
      trx,
      projectId,
      silent.map((s) => s.id),
    );
}

export async function setSegmentSpeaker(trx: Db, segmentId: string, speakerId: string): Promise<void> {
  await trx
    .updateTable('source_segments')
    .set({ speaker_id: speakerId, updated_at: sql<Date>`now()` })
    .where('id', '=', segmentId)
    .execute();
}

/**
 * Gives every speaker of the project a voice in `locale` if they have none yet, by the machine's
 * rule (src/shared/speaker-voices.ts), in the caller's transaction. What a render of the
 * language runs first, so each speaker is heard with their own voice from the first dub on.
 */
export async function assignMissingSpeakerVoices(trx: Db, projectId: string, locale: string, offered: readonly OfferedVoice[], languageVoice: string | null): Promise<void> {
  const [speakers, voices] = await Promise.all([listSpeakerSummaries(trx, projectId), listSpeakerVoices(trx, projectId, locale)]);
  const voiceless = speakers.filter((s) => !voices.some((v) => v.speaker_id === s.id)).sort((a, b) => b.speech_seconds - a.speech_seconds || a.position - b.position);
  if (!voiceless.length) return;
  const chosen = chooseSpeakerVoices(
    voiceless.map((s) => ({ id: s.id, medianPitchHz: s.median_pitch_hz })),
    voices.map((v) => v.voice),
    offered,
    languageVoice,
  );
  for (const choice of chosen) {
    if (choice.voice) await setSpeakerVoice(trx, { speaker_id: choice.speakerId, locale, voice: choice.voice, chosen_by: 'machine', variant: choice.variant });
  }
}

/** The project's representation shows its speakers: a change to them is a new version of it (its ETag). */
export async function touchSpeakers(trx: Db, projectId: string): Promise<void> {
  await trx
    .updateTable('projects')
    .set({ updated_at: sql<Date>`now()` })
    .where('id', '=', projectId)
    .execute();
}

/** The customer's voices for speakers named by label (`voices.<locale>.<label>` at create or on an addition). */
export async function setLabelledVoices(trx: Db, projectId: string, byLocale: Readonly<Record<string, Readonly<Record<string, string>>>>): Promise<void> {
  const speakers = await listSpeakers(trx, projectId);
  for (const [locale, byLabel] of Object.entries(byLocale)) {
    for (const [label, voice] of Object.entries(byLabel)) {
      const speaker = speakers.find((s) => s.label === label);
      if (speaker) await setSpeakerVoice(trx, { speaker_id: speaker.id, locale, voice, chosen_by: 'customer', variant: false });
    }
  }
}
