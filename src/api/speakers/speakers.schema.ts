import type { Validated } from '../../shared/validated';
import { MAX_SPEAKER_LABEL } from '../../shared/speaker-labels';

// Request bodies of the speaker routes (docs/speakers.md#correcting).

/** What a speaker id looks like (newSpeakerId): anything else names no speaker. */
export const SPEAKER_ID = /^spk_[a-z0-9]{1,32}$/;

export const updateSpeakerBodySchema = {
  type: 'object',
  additionalProperties: false,
  description: 'At least one of the two; what is not sent stays as it is.',
  properties: {
    label: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_SPEAKER_LABEL,
      pattern: '\\S',
      description: "The speaker's name: shown in the editor and in the captions' voice spans. Unique in the project.",
    },
    voices: {
      type: 'object',
      description:
        'The voice this speaker speaks with, by target locale: an `id` from GET /v1/dubbing/voices?locale=…. Their lines in that language are spoken again at its next regeneration, which bills only them.',
      propertyNames: { pattern: '^[a-z]{2,3}_[a-z]{2}$' },
      additionalProperties: { type: 'string', minLength: 1, maxLength: 200 },
    },
  },
} as const;
export type UpdateSpeakerBody = Validated<typeof updateSpeakerBodySchema>;

export const mergeSpeakersBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['into_speaker_id'],
  properties: {
    into_speaker_id: { type: 'string', minLength: 1, maxLength: 64, description: 'The speaker who keeps every line: the one in the path is removed.' },
  },
} as const;
export type MergeSpeakersBody = Validated<typeof mergeSpeakersBodySchema>;
