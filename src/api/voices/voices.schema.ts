import type { Validated } from '../../shared/validated';

const LOCALE = { type: 'string', minLength: 1, maxLength: 20 } as const;

export const listVoicesQuerySchema = {
  type: 'object',
  properties: {
    locale: { ...LOCALE, description: 'Only the voices of this target locale.' },
  },
  additionalProperties: false,
} as const;

export type ListVoicesQuery = Validated<typeof listVoicesQuerySchema>;

export const voiceSampleQuerySchema = {
  type: 'object',
  properties: {
    locale: { ...LOCALE, description: "The locale the sample speaks, for a voice offered for several (an external engine's); its first locale by default." },
  },
  additionalProperties: false,
} as const;

export type VoiceSampleQuery = Validated<typeof voiceSampleQuerySchema>;
