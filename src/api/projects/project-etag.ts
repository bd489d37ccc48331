import { createHmac } from 'node:crypto';
import type { Project } from '../../db/projects';
import type { AppDeps } from '../app-deps';

// GET /v1/dubbing/projects/{id} answers a strong ETag built on `projects.view_version`, which
// triggers bump in the same transaction as any change the body shows (the project row, its
// languages, upload, parts and deliverables); a matching If-None-Match is a 304 that costs one
// primary-key read. What the version does not follow is left out of the ETag's promise
// (docs/design.md#conditional-get):
//
// - an open upload on a store that alone knows its parts (s3): a part arriving bumps nothing,
//   and its presigned part URLs carry their signing time, so no two bodies are alike. Such a
//   body gets no ETag.
// - the local driver's part URLs are signed until the upload's `expires_at` (a column), so the
//   same version always renders the same URLs, valid for as long as the upload is.
// - what the process renders with: the public base URL and signing secret in every URL (a keyed
//   digest, so the secret is not revealed) and SHAPE, the body's layout, bumped whenever a
//   change of the presenter changes what the same rows render.

/** Bump when the project's JSON changes for the same rows (a field added, renamed or reformatted). */
const SHAPE = 4;

/** What the rendering process contributes to every body: one short digest, fixed for the process. */
export function representationTag(config: AppDeps['config']): string {
  return createHmac('sha256', config.storage.signingSecret).update(`${SHAPE}\n${config.http.publicBaseUrl}`).digest('base64url').slice(0, 10);
}

/** The ETag of the project's body, or undefined when view_version cannot vouch for it (see above). */
export function projectETag(deps: AppDeps, tag: string, project: Pick<Project, 'view_version' | 'status' | 'source_type'>, includeTransfer: boolean): string | undefined {
  const storeKnowsParts = !deps.uploads.partsRecordedInDatabase && project.status === 'awaiting_upload' && project.source_type === 'upload';
  if (storeKnowsParts) return undefined;
  return `"${project.view_version}-${includeTransfer ? 't' : 'n'}-${tag}"`;
}

/**
 * Whether If-None-Match names `etag` (RFC 9110 §13.1.2: `*`, or a list compared weakly). Not
 * Koa's `ctx.fresh`: that also refuses any request with `Cache-Control: no-cache`, which the
 * Fetch standard adds to every fetch() that sets If-None-Match itself, i.e. to the very clients
 * that poll with an ETag. The request's Cache-Control speaks to caches, not to this server.
 */
export function ifNoneMatchHits(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const tag = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === tag);
}
