import { randomUUID } from 'node:crypto';
import { isSealed, openSecret, sealSecret } from '../../../src/webhooks/secret-box';

const KEY = 'ab'.repeat(32);

describe('issue 26 item 10: endpoint secrets sealed at rest', () => {
  it('seals with AES-256-GCM under the key, bound to the endpoint, and reads a legacy plain secret as it is', () => {
    const id = randomUUID();
    const secret = 'whsec_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
    const sealed = sealSecret(KEY, id, secret);
    expect(sealed).toMatch(/^v1:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(isSealed(sealed)).toBe(true);
    expect(sealSecret(KEY, id, secret)).not.toBe(sealed); // a fresh IV each time
    expect(openSecret(KEY, id, sealed)).toBe(secret);
    expect(() => openSecret('cd'.repeat(32), id, sealed)).toThrow(/WEBHOOK_SECRET_KEY/);
    expect(() => openSecret(KEY, randomUUID(), sealed)).toThrow(/does not open/);
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('AA') ? 'AB' : 'AA');
    expect(() => openSecret(KEY, id, tampered)).toThrow(/does not open/);
    expect(openSecret(KEY, id, secret)).toBe(secret);
    expect(() => openSecret(KEY, id, null)).toThrow(/no signing secret/);
  });
});
