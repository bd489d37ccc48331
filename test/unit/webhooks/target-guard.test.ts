import { checkWebhookTarget, isForbiddenAddress, WebhookTargetError } from '../../../src/webhooks/target-guard';
import { signatureHeader } from '../../../src/webhooks/signature';
import { verifyDubbingSignature } from '../../helpers/webhook-receiver';

describe('webhook target addresses', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fd00::1',
    'fc00::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '::ffff:808:808'])('allows %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it('refuses loopback hosts and non-http schemes unless private targets are allowed', async () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost/hook', 'https://[::1]/hook', 'http://169.254.169.254/latest/meta-data', 'http://[::ffff:127.0.0.1]/hook']) {
      await expect(checkWebhookTarget(url, { allowPrivate: false })).rejects.toMatchObject({ code: 'webhook_target_forbidden' });
    }
    await expect(checkWebhookTarget('ftp://example.com/hook', { allowPrivate: true })).rejects.toMatchObject({ code: 'invalid_webhook_url' });
    await expect(checkWebhookTarget('https://user:pw@example.com/', { allowPrivate: true })).rejects.toBeInstanceOf(WebhookTargetError);
    await expect(checkWebhookTarget('http://127.0.0.1:8080/hook', { allowPrivate: true })).resolves.toMatchObject({ address: '127.0.0.1', family: 4 });
    await expect(checkWebhookTarget('http://[::1]:8080/hook', { allowPrivate: true })).resolves.toMatchObject({ address: '::1', family: 6 });
  });
});

describe('the signature', () => {
  it('verifies with the documented recipe, and fails for another secret, body or an old timestamp', () => {
    const body = JSON.stringify({ id: 'evt', type: 'project.completed' });
    const now = Math.floor(Date.now() / 1000);
    const header = signatureHeader('whsec_test', now, body);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyDubbingSignature(body, header, 'whsec_test')).toBe(true);
    expect(verifyDubbingSignature(body, header, 'whsec_other')).toBe(false);
    expect(verifyDubbingSignature(`${body} `, header, 'whsec_test')).toBe(false);
    expect(verifyDubbingSignature(body, signatureHeader('whsec_test', now - 3600, body), 'whsec_test')).toBe(false);
    expect(verifyDubbingSignature(body, undefined, 'whsec_test')).toBe(false);
  });
});
