import { dataEnvelope, localeString, strictObject, uuidString } from '../openapi/json-schema';
import { projectListItemSchema, projectReviewStateSchema, projectSchema } from '../openapi/project-schemas';

// Response bodies of the projects endpoints, written once: the OpenAPI document shows them and
// the contract tests hold every response of the integration suites to them.

export const projectResponseSchema = dataEnvelope(projectSchema);

export const projectListResponseSchema = dataEnvelope(
  { type: 'array', items: projectListItemSchema },
  { page: strictObject({ has_more: { type: 'boolean' }, next_cursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next page; null on the last.' } }) },
);

export const uploadCompletionResponseSchema = dataEnvelope(
  strictObject({
    id: uuidString,
    status: { type: 'string', enum: ['validating', 'processing', 'completed', 'partially_completed', 'failed'] },
    source: strictObject({ type: { const: 'upload' }, file_name: { type: 'string' } }),
  }),
);

export const trackCompletionResponseSchema = dataEnvelope(
  strictObject({
    id: uuidString,
    background_track: strictObject({ file_name: { type: 'string' }, size_bytes: { type: 'integer' }, completed: { const: true } }),
  }),
);

/** `data.addition` (docs/design.md#languages); a request that is not a preview adds `charged_now_seconds`. */
const additionSchema = strictObject(
  {
    preview_only: { type: 'boolean' },
    existing_locales: { type: 'array', items: localeString, description: 'Requested locales the project already has (free).' },
    new_locales: { type: 'array', items: localeString },
    billable_seconds: { type: 'integer', description: "The project's billable seconds × new locales." },
    credits: { type: 'integer' },
    max_billable_seconds: { type: 'integer' },
    within_limit: { type: 'boolean', description: 'False: over max_billable_seconds, nothing was charged or added.' },
    charged_now_seconds: { type: 'integer', description: 'What this request charged; absent on a preview.' },
  },
  ['charged_now_seconds'],
);

export const addLanguagesResponseSchema = dataEnvelope(strictObject({ addition: additionSchema, project: projectSchema }, ['project']));

/** `data.review` (docs/design.md#review). */
const reviewQuoteSchema = strictObject({
  preview_only: { type: 'boolean' },
  already_requested: { type: 'boolean' },
  billable_seconds: { type: 'integer', description: 'The source duration rounded up to whole minutes.' },
  credits: { type: 'integer' },
  max_billable_seconds: { type: 'integer' },
  within_limit: { type: 'boolean' },
  charged_now_seconds: { type: 'integer', description: '0 for a preview.' },
});

export const transcriptReviewResponseSchema = dataEnvelope(
  strictObject({
    review: reviewQuoteSchema,
    project: { oneOf: [projectReviewStateSchema, projectSchema], description: 'A preview shows the review state only; a submission, the project as GET returns it.' },
  }),
);
