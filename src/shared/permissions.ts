export const PERMISSIONS = ['dubbing:read', 'dubbing:write', 'usage:read', 'notes:read'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const KEY_KINDS = ['project', 'personal'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

export const isPermission = (value: string): value is Permission =>
  (PERMISSIONS as readonly string[]).includes(value);
