import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../api-error';

// Opaque list cursors: the position plus an HMAC, so a tampered or foreign cursor is refused
// (400 invalid_cursor) instead of silently listing from a wrong place.

const sign = (secret: string, payload: string) => createHmac('sha256', secret).update(`cursor:${payload}`).digest('base64url').slice(0, 22);

export function encodeCursor(secret: string, position: { seq: number; workspaceId: string }): string {
  const payload = Buffer.from(JSON.stringify({ s: position.seq, w: position.workspaceId })).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

export function decodeCursor(secret: string, cursor: string, workspaceId: string): number {
  const invalid = () => ApiError.invalid('invalid_cursor', 'The cursor is not valid; pass next_cursor exactly as returned.', 'cursor');
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined) throw invalid();
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
  let decoded: { s?: unknown; w?: unknown };
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof decoded.s !== 'number' || !Number.isSafeInteger(decoded.s) || decoded.w !== workspaceId) throw invalid();
  return decoded.s;
}

/**
 * A list page from rows read one past `limit` (newest first, by `seq`): the rows to show and the
 * `page` block, whose cursor continues after the last of them.
 */
export function cursorPage<R extends { seq: number }>(secret: string, workspaceId: string, rows: readonly R[], limit: number): { items: R[]; page: { has_more: boolean; next_cursor: string | null } } {
  const items = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return { items, page: { has_more: hasMore, next_cursor: hasMore ? encodeCursor(secret, { seq: items[items.length - 1]!.seq, workspaceId }) : null } };
}
