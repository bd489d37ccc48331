import type { ErrorContract, Operation } from '../openapi/operation';
import { dataEnvelope, isoTimestamp, nullable, strictObject, uuidString } from '../openapi/json-schema';
import { createGlossaryBodySchema, emptyQuerySchema, getGlossaryQuerySchema, listGlossariesQuerySchema, projectGlossaryBodySchema, updateGlossaryBodySchema } from './glossaries.schema';

// The glossary routes' contract (docs/glossaries.md), from the very schemas glossaries.routes.ts validates with.

const TAGS = ['Glossaries'];
const glossaryId = { glossary_id: { description: 'The glossary id (`gls_…`) create returned.', schema: { type: 'string' } } };
const projectId = { project_id: { description: "The project's id (a UUID).", schema: uuidString } };
const GLOSSARY_NOT_FOUND: ErrorContract = { status: 404, codes: ['not_found'], description: 'No such glossary in this workspace (or it was deleted).' };
const BAD_ENTRIES: ErrorContract = {
  status: 400,
  codes: ['invalid_parameter', 'unsupported_locale', 'duplicate_glossary_term'],
  description:
    'An entry that does nothing (`param`: `entries[i]`), a term of more than one line, a locale the workers cannot dub into (`entries[i].translations.<locale>`), a term given twice (`entries[i].term`, the later one). Nothing is written.',
};
const PROJECT_BUSY: ErrorContract = {
  status: 409,
  codes: ['project_busy'],
  description: 'The project is validated, transcribed, dubbed, regenerated or re-dubbed: its glossary can change once that has finished, like its transcript.',
};

const renderings = { type: 'object', additionalProperties: { type: 'string' } };
const entrySchema = strictObject({
  term: { type: 'string' },
  case_sensitive: { type: 'boolean' },
  keep: { type: 'boolean' },
  translations: { ...renderings, description: 'Forced translation per target locale.' },
  pronunciations: { ...renderings, description: 'How the voice says the term per target locale.' },
});

const glossarySchema = strictObject({
  id: { type: 'string', description: '`gls_…`' },
  object: { type: 'string', const: 'glossary' },
  name: { type: 'string', description: 'As it was in this version.' },
  source_locale: { type: 'string' },
  version: { type: 'integer', minimum: 1, description: 'The version shown.' },
  latest_version: { type: 'integer', minimum: 1, description: 'The newest version there is; versions 1 to it stay readable.' },
  entries: { type: 'array', items: entrySchema },
  created_at: isoTimestamp,
  updated_at: { ...isoTimestamp, description: 'When this version was made.' },
  deleted_at: nullable({ ...isoTimestamp, description: "Set on a deleted glossary's version a live project still pins (the only kind still readable)." }),
});

const glossaryListItemSchema = strictObject({
  id: { type: 'string' },
  object: { type: 'string', const: 'glossary' },
  name: { type: 'string' },
  source_locale: { type: 'string' },
  version: { type: 'integer', minimum: 1, description: 'The latest version.' },
  entry_count: { type: 'integer', minimum: 0, description: "The latest version's entries." },
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
});

const pageSchema = strictObject({ has_more: { type: 'boolean' }, next_cursor: nullable({ type: 'string' }) });

const projectGlossarySchema = strictObject({
  project_id: uuidString,
  glossary: nullable({ ...strictObject({ id: { type: 'string' }, version: { type: 'integer', minimum: 1 } }), type: 'object', description: 'The version pinned now; null for none.' }),
  stale_lines: {
    type: 'object',
    additionalProperties: { type: 'integer', minimum: 0 },
    description: "Per target locale, the lines this change made `stale`: the language's next regeneration translates and speaks them again, and bills only them.",
  },
});

const entriesExample = [
  { term: 'Rice Cooker Pro', case_sensitive: true, keep: true, translations: {}, pronunciations: { es_es: 'ráis kúker pro' } },
  { term: 'steam basket', case_sensitive: false, keep: false, translations: { es_es: 'cesta de vapor', ca_es: 'cistella de vapor' }, pronunciations: {} },
];
const glossaryExample = {
  id: 'gls_k3v9q2m7x1c8b4n6',
  object: 'glossary',
  name: 'Kitchen products',
  source_locale: 'en_us',
  version: 2,
  latest_version: 2,
  entries: entriesExample,
  created_at: '2026-12-06T09:00:00.000Z',
  updated_at: '2026-12-06T10:30:00.000Z',
  deleted_at: null,
};

export const glossariesOperations: Operation[] = [
  {
    method: 'post',
    path: '/v1/glossaries',
    operationId: 'createGlossary',
    summary: 'Create a glossary',
    description:
      'Version 1 of a glossary of the workspace: terms as written in the source, each kept as written, forced to a translation or given a pronunciation per target locale. A project applies it once it pins a version (`glossary` at create, or PUT …/projects/{project_id}/glossary). See docs/glossaries.md.',
    tags: TAGS,
    auth: 'dubbing:write',
    idempotency: 'required',
    body: createGlossaryBodySchema,
    bodyExample: {
      name: 'Kitchen products',
      source_locale: 'en_us',
      entries: [
        { term: 'Rice Cooker Pro', case_sensitive: true, keep: true },
        { term: 'steam basket', translations: { es_es: 'cesta de vapor' } },
      ],
    },
    responses: { 201: { description: 'The glossary, version 1.', schema: dataEnvelope(glossarySchema), example: { data: { ...glossaryExample, version: 1, latest_version: 1 } } } },
    errors: [BAD_ENTRIES, { status: 400, codes: ['unsupported_locale'], description: 'A source_locale the workers cannot take as a source.' }],
  },
  {
    method: 'get',
    path: '/v1/glossaries',
    operationId: 'listGlossaries',
    summary: 'List glossaries',
    description: 'Newest first, with an opaque cursor; each with its latest version and how many entries it has (GET one for the entries).',
    tags: TAGS,
    auth: 'dubbing:read',
    query: listGlossariesQuerySchema,
    responses: {
      200: {
        description: 'A page of glossaries.',
        schema: dataEnvelope({ type: 'array', items: glossaryListItemSchema }, { page: pageSchema }),
        example: {
          data: [
            {
              id: glossaryExample.id,
              object: 'glossary',
              name: glossaryExample.name,
              source_locale: 'en_us',
              version: 2,
              entry_count: 2,
              created_at: glossaryExample.created_at,
              updated_at: glossaryExample.updated_at,
            },
          ],
          page: { has_more: false, next_cursor: null },
        },
      },
    },
    errors: [{ status: 400, codes: ['invalid_cursor'] }],
  },
  {
    method: 'get',
    path: '/v1/glossaries/{glossary_id}',
    operationId: 'getGlossary',
    summary: 'Get a glossary',
    description: "The latest version, or `version`: every earlier one stays readable. A deleted glossary's versions that live projects pin stay readable by number.",
    tags: TAGS,
    auth: 'dubbing:read',
    pathParams: glossaryId,
    query: getGlossaryQuerySchema,
    responses: { 200: { description: 'The glossary as it is in that version.', schema: dataEnvelope(glossarySchema), example: { data: glossaryExample } } },
    errors: [{ ...GLOSSARY_NOT_FOUND, description: 'No such glossary in this workspace (or it was deleted), or no such `version` of it (`param`: `version`).' }],
  },
  {
    method: 'put',
    path: '/v1/glossaries/{glossary_id}',
    operationId: 'updateGlossary',
    summary: 'Update a glossary (a new version)',
    description:
      'Makes the next version with these entries (and name); earlier versions stay as they were, and so do the projects that pin them until you pin the new one. The same name and entries as the latest make no new version. Free.',
    tags: TAGS,
    auth: 'dubbing:write',
    pathParams: glossaryId,
    body: updateGlossaryBodySchema,
    bodyExample: { entries: entriesExample },
    responses: { 200: { description: 'The new version (or the latest, unchanged).', schema: dataEnvelope(glossarySchema), example: { data: glossaryExample } } },
    errors: [BAD_ENTRIES, GLOSSARY_NOT_FOUND],
  },
  {
    method: 'delete',
    path: '/v1/glossaries/{glossary_id}',
    operationId: 'deleteGlossary',
    summary: 'Delete a glossary',
    description: 'Gone from the list and from new pins. Projects that pin one of its versions keep applying it until they pin another or none; that version stays readable by number.',
    tags: TAGS,
    auth: 'dubbing:write',
    pathParams: glossaryId,
    query: emptyQuerySchema,
    responses: {
      200: {
        description: 'Deleted.',
        schema: dataEnvelope(strictObject({ id: { type: 'string' }, object: { type: 'string', const: 'glossary' }, deleted: { type: 'boolean', const: true } })),
        example: { data: { id: glossaryExample.id, object: 'glossary', deleted: true } },
      },
    },
    errors: [GLOSSARY_NOT_FOUND],
  },
  {
    method: 'put',
    path: '/v1/dubbing/projects/{project_id}/glossary',
    operationId: 'setProjectGlossary',
    summary: "Pin a project's glossary",
    description:
      "The project applies this version of the glossary from now on (the latest when `version` is absent). Free; nothing is dubbed again by itself: lines whose source holds a term whose entry differs go `stale` (docs/glossaries.md#staleness), and each language's next regeneration re-translates only them.",
    tags: TAGS,
    auth: 'dubbing:write',
    pathParams: projectId,
    body: projectGlossaryBodySchema,
    bodyExample: { id: glossaryExample.id, version: 2 },
    responses: {
      200: {
        description: 'The version pinned, and the lines made stale per locale.',
        schema: dataEnvelope(projectGlossarySchema),
        example: { data: { project_id: '5b7c1a8e-3f2d-4c1b-9a6e-2d4f8b0c7e15', glossary: { id: glossaryExample.id, version: 2 }, stale_lines: { es_es: 3, ca_es: 3 } } },
      },
    },
    errors: [
      {
        status: 400,
        codes: ['invalid_parameter'],
        description: "No such glossary in the workspace (`param`: `id`), one in another language than the project's source (`id`), no such version (`version`).",
      },
      { status: 404, codes: ['not_found'], description: 'No such project (or not yours).' },
      PROJECT_BUSY,
    ],
  },
  {
    method: 'delete',
    path: '/v1/dubbing/projects/{project_id}/glossary',
    operationId: 'removeProjectGlossary',
    summary: "Remove a project's glossary",
    description: 'The project applies no glossary from now on; lines holding one of its terms go `stale`, as for any change of glossary. Removing none changes nothing.',
    tags: TAGS,
    auth: 'dubbing:write',
    pathParams: projectId,
    query: emptyQuerySchema,
    responses: {
      200: {
        description: 'No glossary pinned, and the lines made stale per locale.',
        schema: dataEnvelope(projectGlossarySchema),
        example: { data: { project_id: '5b7c1a8e-3f2d-4c1b-9a6e-2d4f8b0c7e15', glossary: null, stale_lines: { es_es: 1 } } },
      },
    },
    errors: [{ status: 404, codes: ['not_found'], description: 'No such project (or not yours).' }, PROJECT_BUSY],
  },
];
