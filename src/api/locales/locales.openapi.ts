import type { Operation } from '../openapi/operation';
import { dataEnvelope, isoTimestamp, localeString, nullable, strictObject } from '../openapi/json-schema';
import { listLocalesQuerySchema } from './locales.schema';

const localeSchema = strictObject({
  locale: localeString,
  display_name: { type: 'string' },
  usable_as_source: { type: 'boolean' },
  usable_as_target: { type: 'boolean' },
  translation_pivot: { type: ['string', 'null'], description: 'Language code translated through on the way from the source, e.g. "ca" for pt_pt (docs/translation.md).' },
});

const localesResponse = dataEnvelope(
  { type: 'array', items: localeSchema },
  {
    capabilities: strictObject({
      source: { type: 'string', enum: ['live_workers', 'last_known', 'none'], description: 'Whose engines the list comes from: live workers, or the last known ones when none is live.' },
      live_workers: { type: 'integer', minimum: 0 },
      as_of: nullable(isoTimestamp),
      age_seconds: { type: ['integer', 'null'], minimum: 0 },
    }),
  },
);

export const localesOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/dubbing/locales',
    operationId: 'listLocales',
    summary: 'List locales',
    description: "The source and target locales the workers' engines serve together. No authentication.",
    tags: ['Locales'],
    auth: 'public',
    query: listLocalesQuerySchema,
    responses: {
      200: {
        description: 'Every locale, and where the list comes from.',
        schema: localesResponse,
        example: {
          data: [{ locale: 'es_es', display_name: 'Spanish (Spain)', usable_as_source: false, usable_as_target: true, translation_pivot: null }],
          capabilities: { source: 'live_workers', live_workers: 2, as_of: '2026-11-24T06:00:00.000Z', age_seconds: 3 },
        },
      },
    },
    errors: [],
  },
];
