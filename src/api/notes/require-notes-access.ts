import type { Middleware } from 'koa';
import { ApiError } from '../api-error';
import { workspaceCaller } from '../middleware/authenticate';
import { stateReader } from '../request-state';

/** The user whose meetings the caller may read; set by requireNotesAccess. */
export const notesAccessOf = stateReader<NotesAccess>('notes', 'requireNotesAccess()');
export interface NotesAccess {
  ownerUserId: string;
}

/**
 * Meetings are a person's, not a workspace's (docs/design.md#auth): only a key that acts for one user may
 * read them — a personal key, or a key of that user's personal workspace — and only with
 * notes:read. A team workspace's project key is refused even if a row somehow holds notes:read,
 * so the rule does not rest on how keys were issued.
 */
export function requireNotesAccess(): Middleware {
  return async (ctx, next) => {
    const auth = workspaceCaller(ctx);
    if (!auth.permissions.has('notes:read')) {
      throw ApiError.permissionDenied('This API key lacks the "notes:read" permission.');
    }
    const actsForUser = auth.keyKind === 'personal' || auth.workspaceKind === 'personal';
    if (!actsForUser || auth.userId === null) {
      throw ApiError.permissionDenied('Meetings can be read only with a personal key or a key of a personal workspace.');
    }
    const access: NotesAccess = { ownerUserId: auth.userId };
    ctx.state.notes = access;
    await next();
  };
}
