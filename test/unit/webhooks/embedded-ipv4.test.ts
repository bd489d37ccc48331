import { checkWebhookTarget, isForbiddenAddress } from '../../../src/webhooks/target-guard';

// IPv6 ranges that carry an IPv4 address to a translator or tunnel are judged by that address
// (docs/webhooks.md, "Where events may go"); deprecated ones and site-local are refused whole.

describe('issue 26 item 7: IPv6 addresses carrying IPv4', () => {
  it.each([
    ['64:ff9b::a00:5', 'NAT64 well-known prefix, 10.0.0.5'],
    ['64:ff9b::10.0.0.5', 'NAT64, dotted'],
    ['0064:ff9b:0000:0000:0000:0000:0a00:0005', 'NAT64, written out'],
    ['64:ff9b::a9fe:a9fe', 'NAT64, 169.254.169.254 (cloud metadata)'],
    ['64:FF9B::7F00:1', 'NAT64, 127.0.0.1, upper case'],
    ['2002:a00:5::1', '6to4, 10.0.0.5'],
    ['2002:a9fe:a9fe::', '6to4, 169.254.169.254'],
    ['2002:c0a8:101:1::1', '6to4, 192.168.1.1'],
    ['::a00:5', 'IPv4-compatible, 10.0.0.5'],
    ['::8.8.8.8', 'IPv4-compatible (deprecated), even public'],
    ['::ffff:0:a00:5', 'SIIT, 10.0.0.5'],
    ['::ffff:0:10.0.0.5', 'SIIT, dotted'],
    ['::ffff:0:7f00:1', 'SIIT, 127.0.0.1'],
    ['::ffff:a00:5', 'IPv4-mapped, 10.0.0.5'],
    ['fec0::1', 'site-local'],
    ['feff:ffff::1', 'site-local, top of fec0::/10'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['64:ff9b:1::a00:5', 'local-use NAT64'],
  ])('refuses %s (%s)', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    ['64:ff9b::808:808', 'NAT64 to 8.8.8.8'],
    ['64:ff9b::8.8.8.8', 'NAT64 to 8.8.8.8, dotted'],
    ['2002:808:808::1', '6to4 relay at 8.8.8.8'],
    ['::ffff:0:808:808', 'SIIT, 8.8.8.8'],
    ['::ffff:8.8.8.8', 'IPv4-mapped, 8.8.8.8'],
    ['2606:4700:4700::1111', 'plain public IPv6'],
    ['fe00::1', 'below fe80::/10 and fec0::/10, outside fc00::/7'],
  ])('allows %s (%s)', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it('refuses such targets in webhook URLs, as the URL parser writes them', async () => {
    for (const url of ['http://[64:ff9b::a00:5]/', 'http://[64:ff9b::10.0.0.5]/hook', 'https://[2002:a00:5::1]/', 'http://[::ffff:0:10.0.0.5]/', 'http://[::10.0.0.5]/', 'http://[fec0::1]:8080/']) {
      await expect(checkWebhookTarget(url, { allowPrivate: false })).rejects.toMatchObject({ code: 'webhook_target_forbidden' });
    }
    await expect(checkWebhookTarget('http://[64:ff9b::8.8.8.8]/hook', { allowPrivate: false })).resolves.toMatchObject({ address: '64:ff9b::808:808', family: 6 });
  });
});
