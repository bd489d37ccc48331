import { notFound, WORKFLOW_SERVICE_ERRORS } from '../openapi/common-errors';
import { dataEnvelope, localeString, strictObject, uuidString } from '../openapi/json-schema';
import type { Operation } from '../openapi/operation';
import { projectSchema } from '../openapi/project-schemas';
import { retryLanguageBodySchema } from './languages/retry-language.schema';
import { cancelProjectBodySchema, deleteProjectQuerySchema } from './lifecycle.schema';
import { projectResponseSchema } from './projects.responses';
import { completedProjectExample } from './projects.examples';

// The contract of a customer's cancel, delete and retry (docs/lifecycle.md).

const TAGS = ['Projects'];
const projectId = { project_id: { description: "The project's id (a UUID).", schema: uuidString } };

const deletedProjectSchema = dataEnvelope(strictObject({ id: uuidString, object: { type: 'string', const: 'project' }, deleted: { type: 'boolean', const: true } }));

const retryQuoteSchema = strictObject({
  preview_only: { type: 'boolean' },
  locale: localeString,
  failure_code: { type: ['string', 'null'], description: 'What the language failed with; it decides the price.' },
  price: {
    type: 'string',
    enum: ['free', 'charged'],
    description: "`free` when the failure was the platform's (engines, storage, a worker, an operator's termination), `charged` when it came from the source or a cancel.",
  },
  billable_seconds: { type: 'integer', description: "What the retry charges, in seconds: 0 when free, else the project's billable seconds." },
  credits: { type: 'integer' },
  max_billable_seconds: { type: 'integer' },
  within_limit: { type: 'boolean', description: 'False: over max_billable_seconds, nothing was charged or changed.' },
  charged_now_seconds: { type: 'integer', description: 'What this request charged: 0 for a preview, over the limit, or a free retry.' },
  attempt: { type: ['integer', 'null'], description: 'The attempt the retry runs as; null for a preview or over the limit.' },
});

export const retryLanguageResponseSchema = dataEnvelope(strictObject({ retry: retryQuoteSchema, project: projectSchema }));

export const lifecycleOperations: Operation[] = [
  {
    method: 'post',
    path: '/v1/dubbing/projects/{project_id}/cancel',
    operationId: 'cancelProject',
    summary: 'Cancel a project',
    description:
      "Stops the project's work. Awaiting its upload: the hold is released at once and the project fails `cancelled` (200). Later: its workflows are cancelled and settle (202, then poll): " +
      'before the charge the hold is released; after it every language not completed fails `cancelled` and is refunded once; completed languages keep their files. ' +
      'Safe to repeat: a cancelled project answers it again (200). Needs an Idempotency-Key. Webhook `project.cancelled` once settled.',
    tags: TAGS,
    auth: 'dubbing:write',
    idempotency: 'required',
    pathParams: projectId,
    body: cancelProjectBodySchema,
    bodyOptional: true,
    responses: {
      200: { description: 'The project, ended: cancelled now (it awaited its upload) or earlier.', schema: projectResponseSchema, example: completedProjectExample },
      202: { description: 'Cancel requested; the workflows are settling. Poll the project until it ends.', schema: projectResponseSchema },
    },
    errors: [
      notFound('project'),
      { status: 409, codes: ['project_already_ended'], description: 'The project already ended without a cancel: there is nothing to cancel.' },
      ...WORKFLOW_SERVICE_ERRORS,
    ],
  },
  {
    method: 'delete',
    path: '/v1/dubbing/projects/{project_id}',
    operationId: 'deleteProject',
    summary: 'Delete a project',
    description:
      "Removes an ended project's source, transcripts, segments and files from storage and the database. The credit ledger keeps its entries. " +
      'The project answers 404 afterwards and leaves the lists. Webhook `project.deleted`.',
    tags: TAGS,
    auth: 'dubbing:write',
    pathParams: projectId,
    query: deleteProjectQuerySchema,
    responses: { 200: { description: 'Deleted.', schema: deletedProjectSchema } },
    errors: [
      notFound('project'),
      { status: 409, codes: ['project_in_progress'], description: 'The project (or a language, a regeneration, a review) is still at work: cancel it first, then delete it once it ended.' },
    ],
  },
  {
    method: 'post',
    path: '/v1/dubbing/projects/{project_id}/languages/{locale}/retry',
    operationId: 'retryLanguage',
    summary: 'Quote or retry a failed language',
    description:
      "Runs a failed language again as a new attempt. Free when the failure was the platform's (`engine_failed`, `terminated`, `internal_error`); charged the project's billable seconds when it came from the source or a cancel. " +
      '`preview_only` (default true) quotes and changes nothing; `preview_only: false` charges the quote (exactly) and starts the retry; it needs an Idempotency-Key. Over `max_billable_seconds`: 200, nothing charged. ' +
      'A retry that fails again is refunded once.',
    tags: TAGS,
    auth: 'dubbing:write',
    idempotency: 'optional',
    pathParams: { ...projectId, locale: { description: "One of the project's target locales.", schema: localeString } },
    body: retryLanguageBodySchema,
    bodyExample: { max_billable_seconds: 60, preview_only: true },
    responses: { 200: { description: 'The quote and the project; with `preview_only: false` and within the limit, the retry started.', schema: retryLanguageResponseSchema } },
    errors: [
      { status: 402, codes: ['insufficient_credits'], description: 'Not enough credits for the quote; nothing was charged or changed.' },
      { ...notFound('project or language'), description: 'No such project (or not yours), or no such target locale in it.' },
      { status: 409, codes: ['language_not_failed', 'project_not_billable'], description: 'The language has not failed, or the project ended before it was charged.' },
      ...WORKFLOW_SERVICE_ERRORS,
    ],
  },
];
