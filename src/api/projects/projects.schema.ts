// JSON schemas for the projects endpoints. Semantic checks that need runtime data (which
// locales the engines serve, the configured upload maximum) happen in the handlers.

import { MAX_NUM_SPEAKERS, voicesRequestSchema } from './voices-request.schema';
import { BACKGROUND_MODES, DEFAULT_BACKGROUND_MODE } from '../../shared/background-mode';
import { CAPTION_PRESET_NAMES, DEFAULT_CAPTION_PRESET } from '../../captions/timed-text-rules';
import { DEFAULT_LOUDNESS_PRESET, LOUDNESS_PRESET_NAMES } from '../../audio/loudness-presets';
import type { Validated } from '../../shared/validated';
import { spendCeilingSchema } from './spend-ceiling.schema';
import { transcriptFileSchema } from '../transcripts/transcript-file.schema';
import { videoOptionsSchema } from './video-options.schema';
import { projectGlossaryBodySchema } from '../glossaries/glossaries.schema';
import { rangeSchema } from './range.schema';

const LOCALE = { type: 'string', minLength: 1, maxLength: 20 } as const;

export const createProjectBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'source_locale', 'target_locales', 'max_billable_seconds', 'source'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    external_id: { type: 'string', minLength: 1, maxLength: 255, description: 'Your own identifier, echoed back and usable as a list filter.' },
    source_locale: { ...LOCALE, description: 'An exact locale from GET /v1/dubbing/locales, usable as a source.' },
    target_locales: { type: 'array', minItems: 1, maxItems: 20, uniqueItems: true, items: LOCALE, description: 'One or more distinct target locales, none equal to the source.' },
    max_billable_seconds: spendCeilingSchema(
      'The spend ceiling per language: a source longer than this is neither processed nor charged. The create holds it for every target locale, so it must be covered by the balance (402 otherwise).',
    ),
    source: {
      type: 'object',
      description: 'Either a YouTube video URL or a file you upload in parts.',
      discriminator: { propertyName: 'type' },
      required: ['type'],
      properties: { type: { enum: ['upload', 'youtube'] } },
      oneOf: [
        {
          additionalProperties: false,
          required: ['type', 'file_name', 'size_bytes'],
          properties: {
            type: { const: 'upload' },
            file_name: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[^/\\\\\\u0000]+$' },
            size_bytes: { type: 'integer', minimum: 1 },
          },
        },
        {
          additionalProperties: false,
          required: ['type', 'url'],
          properties: {
            type: { const: 'youtube' },
            url: { type: 'string', minLength: 1, maxLength: 2048 },
          },
        },
      ],
    },
    // Bring your own script (docs/editing.md#bring-your-own-script); the cues are checked by the
    // handler, which names the one that breaks a rule.
    transcript: { ...transcriptFileSchema, description: 'Your own source transcript: no speech recognition runs, and the dub is made from these cues.' },
    translations: {
      type: 'object',
      description: 'Your own lines for some target locales, keyed by locale: that language is dubbed from them as given (no machine translation).',
      maxProperties: 20,
      propertyNames: LOCALE,
      additionalProperties: transcriptFileSchema,
    },
    background: {
      enum: BACKGROUND_MODES,
      default: DEFAULT_BACKGROUND_MODE,
      description:
        'What the dub is mixed over (no source separation runs): `duck` lowers the original soundtrack 20 dB under each dubbed sentence (a stereo original also loses its centre there) and keeps it between sentences; `keep` lays the whole original under the dub at a fixed low level; `drop` is the dub alone.',
    },
    background_track: {
      type: 'object',
      additionalProperties: false,
      required: ['file_name', 'size_bytes'],
      // The file name rules of the source's.
      properties: {
        file_name: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[^/\\\\\\u0000]+$' },
        size_bytes: { type: 'integer', minimum: 1 },
      },
      description:
        'Your own music-and-effects track (upload source only), uploaded in parts like the source (`transfer.background_track`) and completed first: it plays under the dub at full level instead of the original, in every language, and must be as long as the source (docs/background.md#your-own-music-and-effects-track).',
    },
    caption_rules: {
      enum: CAPTION_PRESET_NAMES,
      default: DEFAULT_CAPTION_PRESET,
      description:
        "The timed-text rules every language's captions are cut, timed and checked to (docs/captions.md#presets): `standard` (after the Netflix English template: 42 characters × 2 lines, 17 characters a second, 0.833–7 s on screen, 2 frames between cues), `fast` (20 characters a second) or `children` (13).",
    },
    loudness: {
      enum: LOUDNESS_PRESET_NAMES,
      default: DEFAULT_LOUDNESS_PRESET,
      description:
        "The delivery standard every language's mix is normalized to (docs/audio.md#presets), its lines first levelled to one another: `web` (-16 LUFS integrated, -1 dBTP true peak), `broadcast` (EBU R128: -23 LUFS, -1 dBTP), `atsc` (ATSC A/85: -24 LKFS, -2 dBTP) or `none` (neither levelled nor normalized; still measured).",
    },
    voices: { ...voicesRequestSchema, description: `${voicesRequestSchema.description} A per-speaker map names the speakers of the supplied \`transcript\`.` },
    num_speakers: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_NUM_SPEAKERS,
      default: 0,
      description: 'How many people speak in the source (docs/speakers.md): 0 = find out, 1 = one speaker (no detection runs), N = exactly N. A supplied transcript names its own speakers.',
    },
    // Source title and description to localize per language; the name is used when absent.
    publishing: {
      type: 'object',
      additionalProperties: false,
      properties: {
        title: { type: 'string', minLength: 1, maxLength: 200 },
        description: { type: 'string', maxLength: 5000 },
      },
    },
    video: videoOptionsSchema,
    range: rangeSchema,
    glossary: {
      ...projectGlossaryBodySchema,
      description:
        "A glossary of the workspace (docs/glossaries.md), written in the source's language: its `version` (the latest when absent) is pinned, and every language of the project keeps, translates and pronounces its terms as it says.",
    },
  },
} as const;

export type CreateProjectBody = Validated<typeof createProjectBodySchema>;

export const listProjectsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 20 },
    cursor: { type: 'string', minLength: 1, maxLength: 200, description: 'The `page.next_cursor` of the previous page.' },
    external_id: { type: 'string', minLength: 1, maxLength: 255, description: 'Only projects with this external_id.' },
    youtube_video_id: { type: 'string', minLength: 1, maxLength: 64, description: 'Only projects of this YouTube video.' },
    query: { type: 'string', minLength: 1, maxLength: 200, description: 'Searches names and external ids, or an exact YouTube video id.' },
  },
} as const;

export type ListProjectsQuery = Validated<typeof listProjectsQuerySchema>;

export const getProjectQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    include_transfer: { type: 'boolean', default: true, description: 'While the upload is open, include the `transfer` block (fresh part URLs, which parts arrived).' },
  },
} as const;

export type GetProjectQuery = Validated<typeof getProjectQuerySchema>;

export const completeUploadBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['parts'],
  properties: {
    parts: {
      type: 'array',
      minItems: 1,
      maxItems: 10_000,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['part_number', 'etag'],
        properties: {
          part_number: { type: 'integer', minimum: 1, maximum: 10_000 },
          etag: { type: 'string', minLength: 1, maxLength: 128, description: "The ETag the part's PUT answered (quotes optional)." },
        },
      },
    },
  },
} as const;

export type CompleteUploadBody = Validated<typeof completeUploadBodySchema>;

// GET /v1/dubbing/projects/{id}/download (docs/design.md#downloads); which formats suit which type is checked in
// the handler (download.ts), so the error can name the allowed ones.
export const downloadQuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['locale', 'type'],
  properties: {
    locale: { type: 'string', minLength: 1, maxLength: 20, description: 'A completed target locale of the project.' },
    type: { enum: ['audio', 'dialog_stem', 'background_stem', 'subtitles', 'thumbnail', 'video'] },
    format: {
      enum: ['mp3', 'wav', 'srt', 'vtt', 'ttml', 'png', 'mp4'],
      description:
        'audio: mp3 (default) or wav; dialog_stem and background_stem: wav (the dub alone and what plays under it, summing to the mix: docs/audio.md#stems); subtitles: vtt (default), srt or ttml (IMSC 1.1 Text Profile); thumbnail: png; video: mp4.',
    },
  },
} as const;

export type DownloadQuery = Validated<typeof downloadQuerySchema>;
