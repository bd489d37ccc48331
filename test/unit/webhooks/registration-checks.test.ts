import { checkWebhookTarget, checkWebhookUrl } from '../../../src/webhooks/target-guard';

// Registration judges what the caller wrote and resolves nothing; a delivery attempt resolves
// and refuses with one reason that tells nothing about the network (docs/webhooks.md).

describe('issue 26 item 9: registration checks form and literals, delivery judges resolved addresses generically', () => {
  it('accepts a public name at registration without resolving it, and still refuses literals and local names', () => {
    // This machine has no DNS: the old check answered "does not resolve" here.
    expect(checkWebhookUrl('https://hooks.partner.example/dubbing', { allowPrivate: false }).hostname).toBe('hooks.partner.example');
    for (const url of [
      'http://10.0.0.5/',
      'http://[::1]/',
      'http://169.254.169.254/latest',
      'http://localhost:8080/',
      'http://postgres:5432/',
      'http://metadata.google.internal/',
      'http://printer.local/',
      'http://app.localhost/',
    ]) {
      expect(() => checkWebhookUrl(url, { allowPrivate: false })).toThrow(expect.objectContaining({ code: 'webhook_target_forbidden' }));
    }
    expect(() => checkWebhookUrl('http://nothing.invalid/', { allowPrivate: true })).toThrow(expect.objectContaining({ code: 'webhook_target_unresolvable' }));
    expect(checkWebhookUrl('http://localhost:8080/', { allowPrivate: true }).port).toBe('8080');
  });

  it('refuses an internal or unresolvable name at delivery with the same reason, naming no address', async () => {
    const internal = async () => [{ address: '172.18.0.3', family: 4 }];
    const mixed = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ];
    const nothing = async () => [];
    const failing = async () => {
      throw new Error('queryA ETIMEOUT hooks.partner.example');
    };
    const reasons: string[] = [];
    for (const resolve of [internal, mixed, nothing, failing]) {
      const refusal = await checkWebhookTarget('https://hooks.partner.example/dubbing', { allowPrivate: false, resolve }).then(
        () => null,
        (err: { code: string; message: string }) => err,
      );
      expect(refusal).toMatchObject({ code: 'webhook_target_forbidden' });
      reasons.push(refusal!.message);
    }
    expect(new Set(reasons).size).toBe(1);
    expect(reasons[0]).toContain('public addresses only');
    expect(reasons[0]).not.toMatch(/172\.18|10\.1\.2\.3|93\.184|resolves to|hooks\.partner/);
    await expect(checkWebhookTarget('https://hooks.partner.example/dubbing', { allowPrivate: false, resolve: async () => [{ address: '93.184.216.34', family: 4 }] })).resolves.toMatchObject({
      address: '93.184.216.34',
      family: 4,
    });
  });
});
