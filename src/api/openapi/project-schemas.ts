import { BACKGROUND_MODES } from '../../shared/background-mode';
import { CAPTION_PRESET_NAMES } from '../../captions/timed-text-rules';
import { LOUDNESS_PRESET_NAMES } from '../../audio/loudness-presets';
import { LANGUAGE_FAILURE_CODES } from '../../shared/failure-messages';
import { FAILURE_CODES } from '../../shared/error-codes';
import { isoTimestamp, localeString, nullable, strictObject, uuidString } from './json-schema';
import { syncTotalsSchema } from './sync-report-schemas';

// The public shapes of a project (src/project-view/project-presenter.ts), written once: create,
// get, list, language additions and transcript review all answer with these. Named in the
// document's components (components.ts), so they appear there once and are $ref'd everywhere.

const PROJECT_STATUSES = ['awaiting_upload', 'validating', 'processing', 'completed', 'partially_completed', 'failed'];
const LANGUAGE_STATUSES = ['queued', 'translating', 'dubbing', 'publishing', 'completed', 'failed'];
const USAGE_STATES = ['pending_validation', 'charged', 'limit_exceeded', 'insufficient_credits', 'refunded', 'released'];
const REVIEW_STATUSES = ['not_requested', 'requested', 'in_review', 'verified', 'expired'];

export const progressSchema = {
  ...strictObject({
    phase: { type: 'string', enum: ['uploading', 'fetching', 'validating', 'transcribing', 'queued', 'translating', 'dubbing', 'publishing', 'completed', 'failed'] },
    waiting_on: { type: 'string', enum: ['upload', 'service', 'caller'], description: 'Who the project (or language) waits on.' },
    can_advance_without_user: { type: 'boolean' },
    poll_after_seconds: { type: 'integer', minimum: 0, description: 'When to read it again; 0 once nothing more will happen.' },
    message: { type: 'string' },
    percent: { type: 'integer', minimum: 0, maximum: 100 },
  }),
  description: 'Honest progress: derived only from what the workflows have recorded.',
};

/** Why a project or a language stopped: null while it has not. The codes differ per level. */
const failureOf = (codes: readonly string[]) =>
  nullable({
    ...strictObject({ code: { type: 'string', enum: [...codes] }, message: { type: 'string', description: 'A fixed sentence per code; never internals.' } }),
    type: 'object',
  });

const projectFailureSchema = failureOf(FAILURE_CODES);
const languageFailureSchema = nullable({
  ...strictObject({
    code: { type: 'string', enum: [...LANGUAGE_FAILURE_CODES] },
    message: { type: 'string', description: 'A fixed sentence per code; never internals.' },
    retry: {
      type: 'string',
      enum: ['free', 'charged'],
      description: "What retrying it costs (POST …/languages/{locale}/retry): free when the failure was the platform's, charged when it came from the source or a cancel.",
    },
  }),
  type: 'object',
});

export const projectUsageSchema = strictObject({
  max_billable_seconds: { type: 'integer' },
  billable_seconds: { type: ['integer', 'null'], description: 'Null until the source is validated.' },
  charged_seconds: { type: 'integer' },
  refunded_seconds: { type: 'integer' },
  state: { type: 'string', enum: USAGE_STATES },
});

const deliverableSchema = strictObject({
  type: {
    type: 'string',
    enum: ['audio', 'dialog_stem', 'background_stem', 'subtitles', 'thumbnail', 'video'],
    description:
      '`video` (MP4) only when the source has a video stream (docs/video.md). `dialog_stem` and `background_stem` (WAV): the dub alone and what plays under it, which sum to the audio WAV (docs/audio.md#stems).',
  },
  format: { type: 'string', enum: ['mp3', 'wav', 'srt', 'vtt', 'ttml', 'png', 'mp4'] },
  download_url: { type: 'string', format: 'uri', description: 'The stable, authenticated download endpoint for this file.' },
});

/** The `video` option a create or an addition chose (docs/video.md). */
const videoChoiceSchema = strictObject({
  burned_captions: { type: 'boolean', description: "The video's picture carries the language's captions (re-encoded to H.264)." },
});

export const languageSchema = strictObject({
  locale: localeString,
  status: { type: 'string', enum: LANGUAGE_STATUSES },
  progress: progressSchema,
  publishing: strictObject({ title: { type: ['string', 'null'] }, description: { type: ['string', 'null'] } }),
  deliverables: { type: 'array', items: deliverableSchema, description: 'Empty until the language is completed.' },
  revision: { type: 'integer', minimum: 1, description: '+ 1 each time a verified transcript re-dubs the language.' },
  voice: {
    type: ['string', 'null'],
    description:
      'The voice every render of this language speaks with: an `id` from GET /v1/dubbing/voices. Null for a language created before voices could be chosen: it keeps the voice it was first rendered with (docs/voices.md).',
  },
  speaker_voices: {
    type: 'array',
    description:
      'The voice each speaker speaks with in this language (docs/speakers.md#voices), in speaker order. `variant`: the locale offers fewer voices than the project has speakers, so this is an engine variant of an offered voice.',
    items: strictObject({
      speaker_id: { type: 'string' },
      label: { type: 'string' },
      voice: { type: 'string' },
      variant: { type: 'boolean' },
      chosen_by: { type: 'string', enum: ['customer', 'machine'] },
    }),
  },
  failure: languageFailureSchema,
  usage: strictObject({ charged_seconds: { type: 'integer' }, refunded_seconds: { type: 'integer' }, goodwill_seconds: { type: 'integer' } }),
  alignment: strictObject({ drift_seconds: { type: ['number', 'null'] } }),
  caption_qc: {
    ...strictObject({
      preset: { type: 'string', enum: [...CAPTION_PRESET_NAMES], description: "The project's `caption_rules`." },
      breaches: {
        type: ['integer', 'null'],
        minimum: 0,
        description:
          'Timed-text rules the published captions break, counted over every cue; null until captions are published (or for captions published before QC). GET …/languages/{locale}/qc names them.',
      },
    }),
    description: "Timed-text QC of the language's published captions (docs/captions.md#qc).",
  },
  sync: syncTotalsSchema,
  loudness: nullable({
    ...strictObject({
      preset: { type: 'string', enum: [...LOUDNESS_PRESET_NAMES], description: "The project's `loudness` the mix was rendered to." },
      integrated_lufs: { type: ['number', 'null'], description: 'Integrated loudness (ITU-R BS.1770), LUFS; null for a silent mix.' },
      range_lu: { type: 'number', description: 'Loudness range (EBU Tech 3342), LU.' },
      true_peak_dbtp: {
        type: ['number', 'null'],
        description: "The highest true peak, dBTP. After a regeneration that spliced the mix, the higher of the previous peak and the changed spans' (an upper bound: docs/audio.md#regenerations).",
      },
    }),
    type: 'object',
    description: "The published mix's loudness as measured when it was delivered (docs/audio.md#report); null for a language published before loudness was measured.",
  }),
  video: videoChoiceSchema,
  created_at: isoTimestamp,
  completed_at: nullable(isoTimestamp),
});

/** One upload's part URLs and progress: the source's, and a music-and-effects track's. */
const uploadTransferProperties = {
  upload_id: { type: 'string' },
  part_size_bytes: { type: 'integer' },
  part_count: { type: 'integer' },
  expires_at: { ...isoTimestamp, description: 'When the upload window, and every part URL, closes.' },
  parts: {
    type: 'array',
    items: strictObject(
      {
        part_number: { type: 'integer', minimum: 1 },
        url: { type: 'string', format: 'uri', description: "PUT the part's bytes here (no API key: the URL is signed)." },
        uploaded: { type: 'boolean' },
        etag: { type: 'string', description: 'Present once uploaded: send it back in upload/complete.' },
      },
      ['etag'],
    ),
  },
};

export const transferSchema = {
  ...strictObject(
    {
      ...uploadTransferProperties,
      background_track: {
        ...strictObject(uploadTransferProperties),
        description: "The music-and-effects track's own upload, the same way, while it is not completed (docs/background.md#your-own-music-and-effects-track): complete it first.",
      },
    },
    ['background_track'],
  ),
  description: 'Present while the project awaits its upload, and only when include_transfer is true.',
};

const sourceSchema = {
  oneOf: [
    strictObject({
      type: { const: 'upload' },
      duration_seconds: { type: ['number', 'null'] },
      file_name: { type: 'string' },
      size_bytes: { type: 'integer' },
    }),
    strictObject({
      type: { const: 'youtube' },
      duration_seconds: { type: ['number', 'null'] },
      url: { type: 'string' },
      youtube_video_id: { type: ['string', 'null'] },
    }),
  ],
};

const reviewStatusSchema = { type: 'string', enum: REVIEW_STATUSES };

export const projectSchema = strictObject(
  {
    id: uuidString,
    name: { type: 'string' },
    external_id: { type: ['string', 'null'] },
    status: { type: 'string', enum: PROJECT_STATUSES },
    source: sourceSchema,
    source_locale: localeString,
    target_locales: { type: 'array', items: localeString },
    usage: projectUsageSchema,
    progress: progressSchema,
    transcript_review: strictObject({
      requested: { type: 'boolean' },
      status: reviewStatusSchema,
      requested_at: nullable(isoTimestamp),
      verified_at: nullable(isoTimestamp),
    }),
    publishing: strictObject({ title: { type: 'string' }, description: { type: 'string' } }),
    background: { type: 'string', enum: [...BACKGROUND_MODES], description: 'What the dub is mixed over, as chosen at create: duck, keep or drop.' },
    background_track: nullable({
      ...strictObject({ file_name: { type: 'string' }, size_bytes: { type: 'integer' } }),
      type: 'object',
      description: 'Your music-and-effects track, played under the dub at full level instead of the original (docs/background.md#your-own-music-and-effects-track); null when none.',
    }),
    loudness: {
      type: 'string',
      enum: [...LOUDNESS_PRESET_NAMES],
      description: 'The delivery standard every language is levelled and normalized to, as chosen at create (docs/audio.md#presets); `none` for projects created before presets.',
    },
    caption_rules: {
      type: 'string',
      enum: [...CAPTION_PRESET_NAMES],
      description: 'The timed-text preset the captions are cut, timed and checked to, as chosen at create (docs/captions.md#presets).',
    },
    languages: { type: 'array', items: languageSchema },
    speakers: strictObject({
      num_speakers: { type: 'integer', description: 'What the create asked: 0 = find out, 1 = one speaker, N = exactly N.' },
      items: {
        type: 'array',
        items: strictObject({ id: { type: 'string' }, label: { type: 'string' } }),
        description: 'The speakers found or supplied so far, in order; GET …/speakers has the details.',
      },
    }),
    glossary: nullable({
      ...strictObject({ id: { type: 'string', description: '`gls_…`' }, version: { type: 'integer', minimum: 1 } }),
      type: 'object',
      description: 'The glossary version the project pins (docs/glossaries.md#pinning); null when none. PUT …/glossary changes it.',
    }),
    video: videoChoiceSchema,
    range: nullable({
      ...strictObject({ start_seconds: { type: 'number', minimum: 0 }, end_seconds: { type: 'number' } }),
      type: 'object',
      description:
        "The stretch of the source a preview dubs, in the source's seconds, as asked at create; null for the whole source. A preview's files, segments and `source.duration_seconds` cover that stretch only, timed from its start (docs/previews.md).",
    }),
    preview: { type: 'boolean', description: 'True when the project dubs a `range` of its source only. Its downloads are named "<name> (preview <start>-<end>s).<locale>.<format>".' },
    failure: projectFailureSchema,
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    transfer: transferSchema,
  },
  ['transfer'],
);

export const projectListItemSchema = strictObject({
  id: uuidString,
  name: { type: 'string' },
  external_id: { type: ['string', 'null'] },
  status: { type: 'string', enum: PROJECT_STATUSES },
  progress: progressSchema,
  source_locale: localeString,
  target_locales: { type: 'array', items: localeString },
  usage: projectUsageSchema,
  created_at: isoTimestamp,
});

/** The project as a transcript-review preview shows it (docs/design.md#review): its id and review state. */
export const projectReviewStateSchema = strictObject({
  id: uuidString,
  transcript_review: strictObject({ requested: { type: 'boolean' }, status: reviewStatusSchema }),
});
