import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Endpoint signing secrets at rest (docs/webhooks.md, "Secrets"). Every delivery is signed with
// the secret, so it cannot be hashed like an API key; it is encrypted with AES-256-GCM under
// WEBHOOK_SECRET_KEY instead, so a database dump or backup alone does not let anyone sign
// events. Stored as `v1:` + base64url(12-byte IV, 16-byte tag, ciphertext); the endpoint's id is
// the additional data, so a sealed secret copied onto another endpoint's row does not open.
// A row written before encryption holds the plain `whsec_…` string: it is read as it is until
// `webhooks:seal-secrets` seals it.

const PREFIX = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const keyBytes = (hexKey: string): Buffer => {
  const key = Buffer.from(hexKey, 'hex');
  if (key.length !== 32) throw new Error('the webhook secret key must be 32 bytes (64 hex characters)');
  return key;
};

export const isSealed = (stored: string): boolean => stored.startsWith(PREFIX);

/** The value to store for `secret` on endpoint `endpointId`. */
export function sealSecret(hexKey: string, endpointId: string, secret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyBytes(hexKey), iv);
  cipher.setAAD(Buffer.from(endpointId, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
}

/**
 * The secret stored for endpoint `endpointId`: opened when sealed, as it is when written before
 * encryption. Throws when there is none (the endpoint was deleted), or when it was sealed under
 * another key or for another endpoint: nothing is ever signed with a wrong or empty key.
 */
export function openSecret(hexKey: string, endpointId: string, stored: string | null): string {
  if (stored === null || stored === '') throw new Error(`webhook endpoint ${endpointId} has no signing secret (it was deleted)`);
  if (!isSealed(stored)) return stored;
  const packed = Buffer.from(stored.slice(PREFIX.length), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', keyBytes(hexKey), packed.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(endpointId, 'utf8'));
  decipher.setAuthTag(packed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(packed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new Error(`the signing secret of webhook endpoint ${endpointId} does not open with WEBHOOK_SECRET_KEY (was the key changed?)`);
  }
}
