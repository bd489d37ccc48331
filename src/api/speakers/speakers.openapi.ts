import type { ErrorContract, Operation } from '../openapi/operation';
import { dataEnvelope, nullable, strictObject, uuidString } from '../openapi/json-schema';
import { noQuerySchema } from '../transcripts/transcripts.schema';
import { mergeSpeakersBodySchema, updateSpeakerBodySchema } from './speakers.schema';

// The speaker routes' contract (docs/speakers.md), from the very schemas speakers.routes.ts validates with.

const TAGS = ['Transcripts'];
const projectId = { project_id: { description: "The project's id (a UUID).", schema: uuidString } };
const speakerId = { speaker_id: { description: "The speaker's id (`spk_…`), as the list returns it.", schema: { type: 'string' } } };
const SPEAKER_NOT_FOUND: ErrorContract = { status: 404, codes: ['not_found'], description: 'No such project or speaker (or not yours).' };

const speakerSchema = strictObject({
  id: { type: 'string', description: 'Stable while the speaker has lines (`spk_…`).' },
  label: { type: 'string', description: 'Their name: `Speaker 1`… until you name them, or as a supplied transcript named them.' },
  position: { type: 'integer', minimum: 1, description: 'In order of first appearance.' },
  median_pitch_hz: nullable({ type: 'number', description: 'The median pitch measured of their voice; null until measured, or with too little voiced speech.' }),
  segments: { type: 'integer', minimum: 0 },
  speech_seconds: { type: 'number', minimum: 0 },
  voices: {
    type: 'object',
    description: 'Their voice in each target language that has one: chosen by you, or by the machine from their pitch (docs/speakers.md#voices).',
    additionalProperties: strictObject({
      voice: { type: 'string' },
      chosen_by: { type: 'string', enum: ['customer', 'machine'] },
      variant: { type: 'boolean', description: 'An engine variant of an offered voice: the locale offers fewer voices than the project has speakers.' },
    }),
  },
});

const speakerExample = {
  id: 'spk_a1b2c3d4e5f6g7h8',
  label: 'Ana',
  position: 1,
  median_pitch_hz: 201.5,
  segments: 12,
  speech_seconds: 41.3,
  voices: { es_es: { voice: 'espeak:es+f3', chosen_by: 'machine', variant: false }, ca_es: { voice: 'festival:upc_ca_ona_hts', chosen_by: 'customer', variant: false } },
};

export const speakersOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/dubbing/projects/{project_id}/speakers',
    operationId: 'listSpeakers',
    summary: 'List speakers',
    description: 'Who speaks in the source: found in the audio, or named by a supplied transcript. Each with their voice per language.',
    tags: TAGS,
    auth: 'dubbing:read',
    pathParams: projectId,
    query: noQuerySchema,
    responses: {
      200: { description: 'In order of first appearance; empty until the transcript is written.', schema: dataEnvelope({ type: 'array', items: speakerSchema }), example: { data: [speakerExample] } },
    },
    errors: [{ status: 404, codes: ['not_found'], description: 'No such project (or not yours).' }],
  },
  {
    method: 'patch',
    path: '/v1/dubbing/projects/{project_id}/speakers/{speaker_id}',
    operationId: 'updateSpeaker',
    summary: 'Rename a speaker or choose their voice',
    description: "Free. A new voice is heard from the language's next regeneration, which speaks and bills only this speaker's lines.",
    tags: TAGS,
    auth: 'dubbing:write',
    pathParams: { ...projectId, ...speakerId },
    body: updateSpeakerBodySchema,
    bodyExample: { label: 'Ana', voices: { ca_es: 'festival:upc_ca_ona_hts' } },
    responses: { 200: { description: 'The speaker as they are now.', schema: dataEnvelope(speakerSchema), example: { data: speakerExample } } },
    errors: [
      { status: 400, codes: ['missing_parameter'], description: 'Neither label nor voices sent.' },
      { status: 400, codes: ['unsupported_voice'], description: 'No live worker offers that voice for that locale (`param`: `voices.<locale>`).' },
      { status: 400, codes: ['invalid_parameter'], description: "A locale that is not one of the project's targets (`param`: `voices.<locale>`)." },
      SPEAKER_NOT_FOUND,
      { status: 409, codes: ['speaker_label_taken'], description: 'Another speaker of the project has that label (`param`: `label`): merge them if they are one person.' },
      { status: 409, codes: ['language_busy'], description: 'That language is being dubbed or regenerated.' },
    ],
  },
  {
    method: 'post',
    path: '/v1/dubbing/projects/{project_id}/speakers/{speaker_id}/merge',
    operationId: 'mergeSpeakers',
    summary: 'Merge two speakers',
    description: 'Every line of this speaker moves to `into_speaker_id`, who keeps their label and voices; this speaker is removed. Free.',
    tags: TAGS,
    auth: 'dubbing:write',
    pathParams: { ...projectId, ...speakerId },
    body: mergeSpeakersBodySchema,
    bodyExample: { into_speaker_id: 'spk_a1b2c3d4e5f6g7h8' },
    responses: { 200: { description: 'The speaker who kept the lines.', schema: dataEnvelope(speakerSchema), example: { data: speakerExample } } },
    errors: [
      { status: 400, codes: ['invalid_parameter'], description: 'into_speaker_id is the speaker in the path.' },
      SPEAKER_NOT_FOUND,
      { status: 409, codes: ['project_busy'], description: 'The project or one of its languages is working: speakers merge once it has finished.' },
    ],
  },
];
