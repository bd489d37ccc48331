import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// Keys look like dk_<keyid>_<secret>. The key id is stored in clear (it finds the row); only the
// SHA-256 of the secret is stored, so a database leak does not leak usable keys.

const KEY_PATTERN = /^dk_([a-z0-9]{16})_([A-Za-z0-9]{32,128})$/;
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LOWER_ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';

export interface ParsedApiKey {
  keyId: string;
  secret: string;
}

export function parseApiKey(raw: string): ParsedApiKey | null {
  const match = KEY_PATTERN.exec(raw);
  if (!match) return null;
  return { keyId: match[1]!, secret: match[2]! };
}

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

export function secretMatches(secret: string, storedHash: Buffer): boolean {
  const candidate = hashSecret(secret);
  return candidate.length === storedHash.length && timingSafeEqual(candidate, storedHash);
}

function randomString(alphabet: string, length: number): string {
  // Rejection sampling keeps every character uniformly likely.
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit && out.length < length) out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}

export function generateApiKey(): { key: string; keyId: string; secret: string } {
  const keyId = randomString(LOWER_ALPHANUMERIC, 16);
  const secret = randomString(ALPHANUMERIC, 40);
  return { key: `dk_${keyId}_${secret}`, keyId, secret };
}
