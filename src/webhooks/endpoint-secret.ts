import { randomBytes } from 'node:crypto';

/** `whsec_` + 32 random bytes (base64url): the key each delivery to one endpoint is signed with. */
export const newEndpointSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

/** What lists and reads show instead of the secret: enough to tell two apart, useless to sign. */
export const secretHint = (secret: string): string => `whsec_…${secret.slice(-4)}`;
