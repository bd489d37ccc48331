import { CAPTION_RULE_NAMES } from '../../captions/qc-cues';
import { CAPTION_PRESET_NAMES } from '../../captions/timed-text-rules';
import type { Operation } from '../openapi/operation';
import { dataEnvelope, localeString, nullable, strictObject, uuidString } from '../openapi/json-schema';
import { noQuerySchema } from '../transcripts/transcripts.schema';

// The caption QC route's contract (docs/captions.md#qc), from the very schema captions.routes.ts validates with.

const TAGS = ['Transcripts'];
const pathParams = {
  project_id: { description: "The project's id (a UUID).", schema: uuidString },
  locale: { description: "One of the project's target locales.", schema: { type: 'string' } },
};

const seconds = { type: 'number', minimum: 0 };
const count = { type: 'integer', minimum: 0 };

const breachSchema = strictObject({
  rule: { type: 'string', enum: [...CAPTION_RULE_NAMES] },
  value: {
    type: 'number',
    description:
      "What the cue has: line_length its longest line's characters, line_count its lines, reading_speed its characters a second (rounded up to 0.01), min_duration and max_duration its seconds on screen, min_gap the seconds to the next cue's start (negative: they overlap).",
  },
  limit: { type: 'number', description: "The preset's limit it breaks." },
});

const qcSchema = dataEnvelope(
  strictObject({
    locale: localeString,
    revision: { type: 'integer', minimum: 1, description: 'The revision whose captions were checked.' },
    preset: { type: 'string', enum: [...CAPTION_PRESET_NAMES], description: "The project's `caption_rules`." },
    rules: strictObject({
      max_line_chars: count,
      max_lines: count,
      max_chars_per_second: { type: 'number' },
      min_duration_seconds: seconds,
      max_duration_seconds: seconds,
      min_gap_seconds: { ...seconds, description: '`min_gap_frames` at `frame_rate`, rounded up to the 0.1 ms.' },
      min_gap_frames: count,
      frame_rate: { type: 'number' },
    }),
    cues: {
      type: 'array',
      description: 'Every cue of the published captions, in order; `breaches` is empty for a cue that keeps every rule.',
      items: strictObject({
        index: { type: 'integer', minimum: 1, description: "The cue's number in the SRT file." },
        start: seconds,
        end: seconds,
        text: { type: 'string', description: 'Its words, lines separated by `\\n` (no markup: a voice span is not text).' },
        line_id: nullable({ type: 'string', description: 'The language line (GET …/segments) the cue shows.' }),
        breaches: { type: 'array', items: breachSchema },
      }),
    },
    totals: strictObject({
      cues: count,
      cues_with_breaches: count,
      breaches: { ...count, description: "The same count as the language's `caption_qc.breaches` in the project view." },
      by_rule: strictObject(Object.fromEntries(CAPTION_RULE_NAMES.map((rule) => [rule, count]))),
    }),
  }),
);

const example = {
  data: {
    locale: 'es_es',
    revision: 1,
    preset: 'standard',
    rules: { max_line_chars: 42, max_lines: 2, max_chars_per_second: 17, min_duration_seconds: 0.833, max_duration_seconds: 7, min_gap_seconds: 0.0834, min_gap_frames: 2, frame_rate: 24 },
    cues: [
      { index: 1, start: 0.42, end: 2.6, text: 'Hola a todos y bienvenidos a la cocina.', line_id: 'lseg_p2n8c4d7s1f5g9hj', breaches: [] },
      {
        index: 2,
        start: 3.4,
        end: 5.1,
        text: 'Hoy cocinamos arroz con verduras frescas\ny un poco de aceite de oliva.',
        line_id: 'lseg_r5t1v3x7z9b2d4fg',
        breaches: [{ rule: 'reading_speed', value: 40.59, limit: 17 }],
      },
    ],
    totals: { cues: 2, cues_with_breaches: 1, breaches: 1, by_rule: { line_length: 0, line_count: 0, reading_speed: 1, min_duration: 0, max_duration: 0, min_gap: 0 } },
  },
};

export const captionsOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/dubbing/projects/{project_id}/languages/{locale}/qc',
    operationId: 'getCaptionQc',
    summary: "Check a language's captions",
    description:
      "Timed-text QC of the published captions against the project's `caption_rules` preset: each cue with every rule it breaks (line length, lines, reading speed, duration, gap to the next cue), and totals. " +
      'The cues are cut and timed to meet the rules where the speech allows; what the speech makes impossible is reported here, never hidden. Free.',
    tags: TAGS,
    auth: 'dubbing:read',
    pathParams,
    query: noQuerySchema,
    responses: { 200: { description: 'The report.', schema: qcSchema, example } },
    errors: [
      { status: 404, codes: ['not_found'], description: 'No such project or target locale (or not yours).' },
      { status: 409, codes: ['language_not_completed'], description: 'The language has no published captions yet.' },
    ],
  },
];
