import type { Context } from 'koa';
import { ApiError } from '../api-error';

/** What newSegmentId (src/db/source-segments.ts) makes: `seg_…` or `lseg_…`, lower-case letters and digits. */
const SEGMENT_ID = /^l?seg_[a-z0-9]{1,32}$/;

/**
 * The `segment_id` path parameter. An id of another shape names no segment: the same 404 as an
 * unknown one, before it reaches a query (a `%00` in it would fail PostgreSQL's text type).
 */
export function segmentIdParam(ctx: Context): string {
  const id = ctx.params.segment_id ?? '';
  if (!SEGMENT_ID.test(id)) throw ApiError.notFound('segment', 'segment_id');
  return id;
}

/** The `locale` path parameter: one of the project's target locales, else 404 before any query. */
export function targetLocaleParam(ctx: Context, project: { target_locales: string[] }): string {
  const locale = ctx.params.locale ?? '';
  if (!project.target_locales.includes(locale)) throw ApiError.notFound('language', 'locale');
  return locale;
}
