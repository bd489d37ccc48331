import type { Db } from '../../db/create-db';
import { findGlossary, findGlossaryVersion, type GlossaryPin } from '../../db/glossaries';
import type { GlossaryEntry } from '../../shared/glossary-entry';
import { ApiError } from '../api-error';
import { GLOSSARY_ID } from './glossaries.schema';

// The glossary a project names, at create (`glossary`) or later (PUT …/glossary): a live
// glossary of the project's workspace, written in the project's source language, and a version
// it has, the latest when none is named (docs/glossaries.md#pinning). A body field names it, so
// what is wrong is a 400 naming that field; another workspace's glossary reads as unknown.

const languageOf = (locale: string) => locale.split('_')[0];

export interface ResolvedPin {
  pin: GlossaryPin;
  entries: GlossaryEntry[];
}

/** `param` is where the body names it: `glossary.` at create, `` on PUT …/glossary. */
export async function resolveGlossaryPin(db: Db, workspaceId: string, sourceLocale: string, named: { id: string; version?: number }, param: string): Promise<ResolvedPin> {
  const glossary = GLOSSARY_ID.test(named.id) ? await findGlossary(db, workspaceId, named.id) : undefined;
  if (!glossary) throw ApiError.invalid('invalid_parameter', `No glossary "${named.id}" in this workspace; see GET /v1/glossaries.`, `${param}id`);
  if (languageOf(glossary.source_locale) !== languageOf(sourceLocale)) {
    throw ApiError.invalid(
      'invalid_parameter',
      `Glossary ${glossary.id}'s terms are written in ${glossary.source_locale}, and the project's source is ${sourceLocale}: name a glossary of the source's language.`,
      `${param}id`,
    );
  }
  const version = named.version ?? glossary.version;
  const row = await findGlossaryVersion(db, glossary.id, version);
  if (!row) throw ApiError.invalid('invalid_parameter', `Glossary ${glossary.id} has versions 1 to ${glossary.version}; there is no version ${version}.`, `${param}version`);
  return { pin: { id: glossary.id, version }, entries: row.entries };
}
