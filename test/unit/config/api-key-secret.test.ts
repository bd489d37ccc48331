import { generateApiKey, hashSecret, parseApiKey, secretMatches } from '../../../src/auth/api-key-secret';

describe('API keys', () => {
  it('generates keys that parse back and match their hash', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const { key, keyId, secret } = generateApiKey();
      expect(key).toMatch(/^dk_[a-z0-9]{16}_[A-Za-z0-9]{40}$/);
      expect(parseApiKey(key)).toEqual({ keyId, secret });
      expect(secretMatches(secret, hashSecret(secret))).toBe(true);
      expect(secretMatches(`${secret}x`, hashSecret(secret))).toBe(false);
      seen.add(key);
    }
    expect(seen.size).toBe(50);
  });

  it('refuses malformed keys', () => {
    for (const bad of ['', 'dk_', 'dk_short_secret', 'sk_aaaaaaaaaaaaaaaa_' + 'b'.repeat(40), 'dk_AAAAAAAAAAAAAAAA_' + 'b'.repeat(40), 'dk_aaaaaaaaaaaaaaaa_' + 'b'.repeat(20)]) {
      expect(parseApiKey(bad)).toBeNull();
    }
  });
});
