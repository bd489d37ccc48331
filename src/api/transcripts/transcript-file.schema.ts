import { TRANSCRIPT_FORMATS } from '../../shared/transcript-format';

// A transcript or translation file sent in a JSON body: `PUT …/transcript`, and `transcript` and
// `translations.<locale>` at create (docs/editing.md#bring-your-own-script). Its cues are checked
// by the handler (readTranscriptInput), which names the cue that breaks a rule.

export const transcriptFileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['format', 'content'],
  properties: {
    format: {
      enum: TRANSCRIPT_FORMATS,
      description:
        '`vtt` (WebVTT: a voice span `<v Ana>` names the speaker), `srt` (SubRip), or `json`: `[{"start_seconds", "end_seconds", "text", "speaker"?}]`, or that list under `segments`. Markup is read, never taken as words.',
    },
    content: {
      type: 'string',
      minLength: 1,
      description:
        'The whole file, as text. Cues must be in order, must not overlap, must have text, must end within the source once its duration is known, must last at least 0.2 s, and may carry at most 26 characters a second plus 15. A cue has at most one speaker.',
    },
    speaker_prefixes: {
      type: 'boolean',
      description: "SubRip only: a line's leading `NAME: ` (1–40 letters, digits, spaces, dots, apostrophes, hyphens) is its speaker, not words. Off by default, so `Note: bring water` stays words.",
    },
  },
} as const;
