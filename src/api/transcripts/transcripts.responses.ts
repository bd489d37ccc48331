import { dataEnvelope, localeString, nullable, strictObject, uuidString } from '../openapi/json-schema';
import { lineSyncSchema, syncTotalsSchema } from '../openapi/sync-report-schemas';

// Response bodies of the transcript and segment routes, written once: the OpenAPI document shows
// them and the contract tests hold every response of the integration suites to them.

const seconds = { type: 'number', minimum: 0 } as const;

export const sourceSegmentSchema = strictObject({
  id: { type: 'string', description: 'Stable across edits of the segment (`seg_…`); a replaced transcript gets new ids.', examples: ['seg_k3v9x2m1q8r4t6wz'] },
  start_seconds: seconds,
  end_seconds: seconds,
  text: { type: 'string' },
  speaker_id: nullable({ type: 'string', description: 'Who speaks it (`spk_…`, GET …/speakers); null only in a transcript written before speakers.' }),
  speaker: nullable({ type: 'string', description: "The speaker's label: a JSON transcript sent back (PUT …/transcript) keeps its speakers by it. Null in a reviewer's view." }),
});

const transcriptSchema = strictObject({
  project_id: uuidString,
  source: {
    type: ['string', 'null'],
    enum: ['machine', 'supplied', 'edited', 'verified', null],
    description: 'Who wrote it: `machine` (speech recognition), `supplied` (given at create or by PUT), `edited` (changed since), `verified` (a reviewer). Null while there is no transcript.',
  },
  source_audio_url: nullable({
    type: 'string',
    format: 'uri',
    description:
      "A short-lived signed URL (`SIGNED_URL_TTL_SECONDS`) of the source's speech (16 kHz mono WAV), to play a segment from its `start_seconds`; it answers Range requests. " +
      "Null until the source's audio is extracted (once the upload is validated and charged), with a supplied transcript too. GET again for a fresh one.",
  }),
  segments: { type: 'array', items: sourceSegmentSchema, description: 'In time order; empty until the source is transcribed or a transcript is supplied.' },
});

export const languageSegmentSchema = strictObject({
  id: { type: 'string', description: "The line's id (`lseg_…`).", examples: ['lseg_p2n8c4d7s1f5g9hj'] },
  source_segment_id: nullable({ type: 'string', description: 'The source segment it was made from; null for a supplied cue that overlaps none, or once a new transcript replaced its segment.' }),
  start_seconds: seconds,
  end_seconds: seconds,
  text: { type: 'string' },
  speaker_id: nullable({ type: 'string', description: "Who speaks it: its source segment's speaker; null once a new transcript replaced that segment." }),
  voice: nullable({ type: 'string', description: "The voice it is spoken with: its speaker's in this language, else the language's (docs/speakers.md#voices)." }),
  status: {
    type: 'string',
    enum: ['current', 'stale', 'edited'],
    description:
      "`current`: the machine's translation of the source as it is; `stale`: the source changed since, and the next regeneration translates it again; `edited`: a person wrote it, and the machine never overwrites it.",
  },
  clip_url: nullable({
    type: 'string',
    format: 'uri',
    description:
      "A short-lived signed URL (`SIGNED_URL_TTL_SECONDS`) of the line's dubbed clip (WAV) as the published revision plays it, which for a `stale` or `edited` line may be older words. Null when the revision plays none for it.",
  }),
  sync: lineSyncSchema,
});

export const transcriptResponseSchema = dataEnvelope(transcriptSchema);
export const sourceSegmentResponseSchema = dataEnvelope(sourceSegmentSchema);
export const languageSegmentResponseSchema = dataEnvelope(languageSegmentSchema);
export const languageSegmentsResponseSchema = dataEnvelope(
  strictObject({
    locale: localeString,
    revision: nullable({ type: 'integer', description: 'The published revision the deliverables are rendered from; null until the language has started.' }),
    segments: { type: 'array', items: languageSegmentSchema, description: 'In time order; empty until the language is translated.' },
    sync: syncTotalsSchema,
  }),
);
