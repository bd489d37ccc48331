import type { Operation } from '../openapi/operation';
import { notFound } from '../openapi/common-errors';
import { dataEnvelope, isoTimestamp, localeString, nullable, strictObject } from '../openapi/json-schema';
import { listVoicesQuerySchema, voiceSampleQuerySchema } from './voices.schema';

const voiceSchema = strictObject({
  id: { type: 'string', description: 'What `voices.<locale>` names at create or when adding languages, e.g. `festival:upc_ca_ona_hts`, `espeak:es+f3`.' },
  locale: localeString,
  name: { type: 'string' },
  gender: { type: ['string', 'null'], enum: ['female', 'male', null], description: "Null where the engine does not say (an external engine's voice)." },
  engine: { type: 'string', enum: ['espeak-ng', 'festival', 'openai-tts'] },
  quality: {
    type: 'string',
    enum: ['formant', 'diphone', 'hts', 'neural'],
    description: "From least to most natural: espeak-ng's formant synthesis, Festival's diphone and HTS voices, an external neural engine.",
  },
  default: { type: 'boolean', description: "The locale's default: its most natural voice, which a language gets when no voice is chosen for it." },
  sample_url: { type: 'string', format: 'uri', description: 'Plays a short sentence in this voice (a redirect to a WAV file).' },
});

const voicesResponse = dataEnvelope(
  { type: 'array', items: voiceSchema },
  {
    capabilities: strictObject({
      source: { type: 'string', enum: ['live_workers', 'last_known', 'none'], description: 'Whose engines the list comes from: live workers, or the last known ones when none is live.' },
      live_workers: { type: 'integer', minimum: 0 },
      as_of: nullable(isoTimestamp),
      age_seconds: { type: ['integer', 'null'], minimum: 0 },
    }),
  },
);

const voiceId = { voice_id: { description: 'A voice `id` from GET /v1/dubbing/voices (URL-encoded).', schema: { type: 'string' } } };

export const voicesOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/dubbing/voices',
    operationId: 'listVoices',
    summary: 'List voices',
    description: 'The voices the workers offer for their target locales, the default of each locale first (docs/voices.md). No authentication.',
    tags: ['Locales'],
    auth: 'public',
    query: listVoicesQuerySchema,
    responses: {
      200: {
        description: 'Every voice, and where the list comes from.',
        schema: voicesResponse,
        example: {
          data: [
            {
              id: 'festival:upc_ca_ona_hts',
              locale: 'ca_es',
              name: 'Ona (Festival HTS)',
              gender: 'female',
              engine: 'festival',
              quality: 'hts',
              default: true,
              sample_url: 'https://dubbing.example.com/v1/dubbing/voices/festival%3Aupc_ca_ona_hts/sample?locale=ca_es',
            },
          ],
          capabilities: { source: 'live_workers', live_workers: 2, as_of: '2026-11-24T06:00:00.000Z', age_seconds: 3 },
        },
      },
    },
    errors: [],
  },
  {
    method: 'get',
    path: '/v1/dubbing/voices/{voice_id}/sample',
    operationId: 'playVoiceSample',
    summary: "Play a voice's sample",
    description: 'Redirects to a short-lived URL of a WAV file: a short sentence in the voice, rendered once by a worker. No authentication.',
    tags: ['Locales'],
    auth: 'public',
    pathParams: voiceId,
    query: voiceSampleQuerySchema,
    responses: {
      302: { description: 'Follow `Location` to the sample.', headers: { Location: { description: 'The signed storage URL.', schema: { type: 'string', format: 'uri' } } } },
    },
    errors: [
      notFound('voice offered for a target locale'),
      { status: 503, codes: ['service_unavailable'], description: 'No worker has rendered this sample yet (workers render them once started); retry after Retry-After seconds.' },
    ],
  },
];
