// `voices` at create and when adding languages (docs/voices.md#choosing, docs/speakers.md#voices):
// by target locale, one voice id for the whole language or a map of speaker labels to voice ids.

export const MAX_NUM_SPEAKERS = 10;

const VOICE_ID = { type: 'string', minLength: 1, maxLength: 200 } as const;

export const voicesRequestSchema = {
  type: 'object',
  description:
    'The voice to speak each target locale with, by locale: an `id` from GET /v1/dubbing/voices for that locale, or a map of speaker labels to ids (`{"Ana": "espeak:es+f3", "Ben": "espeak:es"}`). A locale left out gets its most natural voice, and each speaker a voice of their own chosen by their pitch.',
  maxProperties: 20,
  propertyNames: { type: 'string', minLength: 1, maxLength: 20 },
  additionalProperties: {
    anyOf: [VOICE_ID, { type: 'object', minProperties: 1, maxProperties: 50, propertyNames: { type: 'string', minLength: 1, maxLength: 60 }, additionalProperties: VOICE_ID }],
  },
} as const;
