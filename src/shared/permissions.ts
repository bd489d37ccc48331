/** What a workspace's keys may be granted. */
export const PERMISSIONS = ['dubbing:read', 'dubbing:write', 'usage:read', 'notes:read'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * The one permission of a reviewer key (docs/editing.md#reviewers): the service's staff, tied to
 * no workspace. No workspace key carries it, and a reviewer key carries nothing else.
 */
export const REVIEWER_PERMISSION = 'reviews:write';
export type RoutePermission = Permission | typeof REVIEWER_PERMISSION;

/** The kinds of a workspace's keys; `reviewer` keys belong to no workspace. */
export const KEY_KINDS = ['project', 'personal'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];
export type AnyKeyKind = KeyKind | 'reviewer';

export const isPermission = (value: string): value is Permission => (PERMISSIONS as readonly string[]).includes(value);
