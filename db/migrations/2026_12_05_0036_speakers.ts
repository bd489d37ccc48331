import { Kysely, sql } from 'kysely';

// Frozen in time. Speakers (docs/speakers.md): a project's speakers belong to its transcript.
// - `project_speakers`: one row per speaker, `spk_…` ids stable across edits, the customer's
//   `label` (unique in the project), and the median pitch the worker measured of their voice.
// - `source_segments.speaker_id`: who speaks each segment (a language line follows its segment).
// - `speaker_voices`: the voice a speaker speaks with in one target language, chosen by the
//   customer or by the machine (by pitch); `variant` when it is an engine variant of an offered
//   voice because the locale offers fewer voices than the project has speakers.
// - `language_segments.rendered_voice`: the voice the published clip speaks, so a line whose
//   voice changed is spoken again and billed, and no other. Lines rendered before speakers were
//   spoken with their language's voice.
// - `projects.num_speakers`: what the customer asked at create (0 = find out).
// A transcript written before speakers gets one speaker, `Speaker 1`, who speaks all of it.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('project_speakers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('median_pitch_hz', 'real')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('project_speakers_position', ['project_id', 'position'], (c) => c.deferrable().initiallyDeferred())
    .addUniqueConstraint('project_speakers_label', ['project_id', 'label'])
    .execute();
  await db.schema
    .createTable('speaker_voices')
    .addColumn('speaker_id', 'text', (c) => c.notNull().references('project_speakers.id').onDelete('cascade'))
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('voice', 'text', (c) => c.notNull())
    .addColumn('chosen_by', 'text', (c) => c.notNull().check(sql`chosen_by in ('customer', 'machine')`))
    .addColumn('variant', 'boolean', (c) => c.notNull().defaultTo(false))
    .addPrimaryKeyConstraint('speaker_voices_pkey', ['speaker_id', 'locale'])
    .execute();
  await db.schema
    .alterTable('source_segments')
    .addColumn('speaker_id', 'text', (c) => c.references('project_speakers.id').onDelete('set null'))
    .execute();
  await sql`create index source_segments_speaker on source_segments (speaker_id) where speaker_id is not null`.execute(db);
  // A transcript written before speakers has one speaker, who speaks every segment.
  await sql`
    insert into project_speakers (id, project_id, position, label)
    select 'spk_' || substr(md5(random()::text || p.id::text), 1, 16), p.id, 1, 'Speaker 1'
    from projects p where exists (select 1 from source_segments s where s.project_id = p.id)`.execute(db);
  await sql`update source_segments s set speaker_id = k.id from project_speakers k where k.project_id = s.project_id`.execute(db);
  await db.schema.alterTable('language_segments').addColumn('rendered_voice', 'text').execute();
  await sql`
    update language_segments l set rendered_voice = pl.voice
    from project_languages pl
    where pl.project_id = l.project_id and pl.locale = l.locale and l.rendered_text is not null`.execute(db);
  await db.schema
    .alterTable('projects')
    .addColumn('num_speakers', 'smallint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('num_speakers').execute();
  await db.schema.alterTable('language_segments').dropColumn('rendered_voice').execute();
  await db.schema.alterTable('source_segments').dropColumn('speaker_id').execute();
  await db.schema.dropTable('speaker_voices').execute();
  await db.schema.dropTable('project_speakers').execute();
}
