import { notFound, WORKFLOW_SERVICE_ERRORS } from '../openapi/common-errors';
import { dataEnvelope, localeString, strictObject, uuidString } from '../openapi/json-schema';
import type { Operation } from '../openapi/operation';
import { projectSchema } from '../openapi/project-schemas';
import { completedProjectExample } from '../projects/projects.examples';
import { regenerateBodySchema } from './regenerate.schema';

// The contract of a language's paid regeneration (docs/editing.md#regenerate).

/** `data.regeneration`. */
const regenerationQuoteSchema = strictObject({
  preview_only: { type: 'boolean' },
  segments: { type: 'integer', description: 'How many lines change: stale ones, ones whose text differs from what the published revision plays, and new source segments.' },
  billable_seconds: { type: 'integer', description: 'The summed source duration of the lines that change, rounded up to whole seconds.' },
  credits: { type: 'integer' },
  max_billable_seconds: { type: 'integer' },
  within_limit: { type: 'boolean', description: 'False: over max_billable_seconds, nothing was charged or changed.' },
  charged_now_seconds: { type: 'integer', description: 'What this request charged: 0 for a preview, over the limit, or with nothing to change.' },
});

export const regenerateResponseSchema = dataEnvelope(strictObject({ regeneration: regenerationQuoteSchema, project: projectSchema }));

const regenerationPreviewExample = {
  data: {
    regeneration: { preview_only: true, segments: 1, billable_seconds: 4, credits: 4, max_billable_seconds: 60, within_limit: true, charged_now_seconds: 0 },
    project: completedProjectExample.data,
  },
};

export const regenerationsOperations: Operation[] = [
  {
    method: 'post',
    path: '/v1/dubbing/projects/{project_id}/languages/{locale}/regenerate',
    operationId: 'regenerateLanguage',
    summary: 'Quote or regenerate what changed in a language',
    description:
      'Dubs again only the lines that changed since the published revision (edited, stale, or new source segments) and publishes the next revision; the other cues keep their exact timing. ' +
      '`preview_only` (default true) quotes and changes nothing. `preview_only: false` charges the quote and starts the regeneration; it needs an Idempotency-Key. ' +
      'Over `max_billable_seconds`, or with nothing to change: 200, nothing charged. Refunded once if the regeneration fails.',
    tags: ['Projects'],
    auth: 'dubbing:write',
    idempotency: 'optional',
    pathParams: {
      project_id: { description: "The project's id (a UUID).", schema: uuidString },
      locale: { description: "One of the project's target locales.", schema: localeString },
    },
    body: regenerateBodySchema,
    bodyExample: { max_billable_seconds: 60, preview_only: true },
    responses: {
      200: { description: 'The quote and the project; with `preview_only: false` and within the limit, what was charged.', schema: regenerateResponseSchema, example: regenerationPreviewExample },
    },
    errors: [
      { status: 402, codes: ['insufficient_credits'], description: 'Not enough credits for the quote; nothing was charged or changed.' },
      { ...notFound('project or language'), description: 'No such project (or not yours), or no such target locale in it.' },
      {
        status: 409,
        codes: ['regeneration_in_progress', 'language_busy', 'language_not_completed'],
        description: 'A regeneration of this language is still running, the language is being dubbed again from a verified transcript, or it is not completed.',
      },
      ...WORKFLOW_SERVICE_ERRORS,
    ],
  },
];
