import { MAX_GLOSSARY_ENTRIES, MAX_GLOSSARY_LOCALES, MAX_GLOSSARY_NAME, MAX_GLOSSARY_RENDERING, MAX_GLOSSARY_TERM } from '../../shared/glossary-limits';
import type { Validated } from '../../shared/validated';

// Request schemas of the glossary routes (docs/glossaries.md). What needs runtime data or looks
// across entries (supported locales, duplicate terms, an entry that does nothing) is checked by
// read-glossary-entries.ts, which names the entry.

/** What a glossary id looks like (newGlossaryId): anything else names no glossary. */
export const GLOSSARY_ID = /^gls_[a-z0-9]{1,32}$/;

const LOCALE_KEY = { pattern: '^[a-z]{2,3}_[a-z]{2}$' } as const;

const renderings = (description: string) =>
  ({
    type: 'object',
    description,
    maxProperties: MAX_GLOSSARY_LOCALES,
    propertyNames: LOCALE_KEY,
    additionalProperties: { type: 'string', minLength: 1, maxLength: MAX_GLOSSARY_RENDERING, pattern: '\\S' },
  }) as const;

export const glossaryEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['term'],
  properties: {
    term: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_GLOSSARY_TERM,
      pattern: '\\S',
      description: 'As written in the source, one line; white space around it is trimmed. Matched as a whole word or phrase.',
    },
    case_sensitive: { type: 'boolean', default: false, description: 'false: the term matches in any letter case.' },
    keep: { type: 'boolean', default: false, description: 'true: left as written in every target locale that `translations` does not name.' },
    translations: renderings('The forced translation per target locale (`{"es_es": "Arrocera Pro"}`).'),
    pronunciations: renderings("How the voice says the term per target locale, in the notation of that locale's voice engine (docs/glossaries.md#pronunciations)."),
  },
} as const;

const entriesSchema = {
  type: 'array',
  maxItems: MAX_GLOSSARY_ENTRIES,
  items: glossaryEntrySchema,
  description: `At most ${MAX_GLOSSARY_ENTRIES} entries, each doing something (keep, a translation or a pronunciation), no term twice.`,
} as const;

const nameSchema = { type: 'string', minLength: 1, maxLength: MAX_GLOSSARY_NAME, pattern: '\\S' } as const;

export const createGlossaryBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'source_locale', 'entries'],
  properties: {
    name: nameSchema,
    source_locale: { type: 'string', minLength: 1, maxLength: 20, description: 'The language the terms are written in: a source locale from GET /v1/dubbing/locales.' },
    entries: entriesSchema,
  },
} as const;
export type CreateGlossaryBody = Validated<typeof createGlossaryBodySchema>;

export const updateGlossaryBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['entries'],
  description: 'The next version: its entries replace the whole list; `name` stays as it is when not sent. The source locale never changes.',
  properties: { name: nameSchema, entries: entriesSchema },
} as const;
export type UpdateGlossaryBody = Validated<typeof updateGlossaryBodySchema>;

export const listGlossariesQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 20 },
    cursor: { type: 'string', minLength: 1, maxLength: 200, description: 'The `page.next_cursor` of the previous page.' },
  },
} as const;
export type ListGlossariesQuery = Validated<typeof listGlossariesQuerySchema>;

export const getGlossaryQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { version: { type: 'integer', minimum: 1, maximum: 2_147_483_647, description: 'An earlier version; the latest when absent.' } },
} as const;
export type GetGlossaryQuery = Validated<typeof getGlossaryQuerySchema>;

export const emptyQuerySchema = { type: 'object', additionalProperties: false, properties: {} } as const;

/** A project's glossary (PUT …/projects/{project_id}/glossary). */
export const projectGlossaryBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 64, description: 'A glossary of the workspace (`gls_…`), written in the project’s source language.' },
    version: { type: 'integer', minimum: 1, maximum: 2_147_483_647, description: 'The version to pin; the latest when absent.' },
  },
} as const;
export type ProjectGlossaryBody = Validated<typeof projectGlossaryBodySchema>;
