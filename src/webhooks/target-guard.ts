import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Webhook targets are callers' URLs that the workers POST to from inside the network, so they
// must not reach what only the network can reach: no private, loopback, link-local, CGNAT,
// multicast, reserved or unspecified address, v4 or v6. A host is resolved and every address it
// has is checked (a round-robin name with one private address is refused); the sender then
// connects to the address checked here, so a second DNS answer cannot switch it (DNS rebinding).
// WEBHOOK_ALLOW_PRIVATE_TARGETS lifts the address rule for development and tests.

const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) FORBIDDEN.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['64:ff9b:1::', 48], // local-use NAT64
] as const) FORBIDDEN.addSubnet(network, prefix, 'ipv6');

/** A name that takes longer to resolve is treated as not resolving (a request must not hang on it). */
const LOOKUP_TIMEOUT_MS = 5000;

export type TargetProblem = 'invalid_webhook_url' | 'webhook_target_forbidden' | 'webhook_target_unresolvable';

export class WebhookTargetError extends Error {
  constructor(readonly code: TargetProblem, message: string) {
    super(message);
    this.name = 'WebhookTargetError';
  }
}

export interface CheckedTarget {
  url: URL;
  /** The address to connect to: the one checked, never resolved again. */
  address: string;
  family: 4 | 6;
}

/** True for an address no webhook may reach (IPv4-mapped IPv6 is judged as its IPv4). */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return FORBIDDEN.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return FORBIDDEN.check(mapped[1]!, 'ipv4');
  // The URL parser writes a mapped address in hex: [::ffff:127.0.0.1] becomes ::ffff:7f00:1.
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
    return FORBIDDEN.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, 'ipv4');
  }
  return FORBIDDEN.check(address, 'ipv6');
}

/** The URL's own shape: http(s), a host, no credentials. Throws WebhookTargetError. */
export function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookTargetError('invalid_webhook_url', 'The webhook url must be an absolute http or https URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebhookTargetError('invalid_webhook_url', `The webhook url must use http or https, not ${url.protocol.replace(':', '')}.`);
  if (url.username || url.password) throw new WebhookTargetError('invalid_webhook_url', 'The webhook url must not carry credentials; verify deliveries with the signature instead.');
  if (!url.hostname) throw new WebhookTargetError('invalid_webhook_url', 'The webhook url needs a host.');
  return url;
}

/**
 * Parses and resolves a target, refusing forbidden addresses unless `allowPrivate`. Throws
 * WebhookTargetError; returns the address to connect to.
 */
export async function checkWebhookTarget(raw: string, options: { allowPrivate: boolean }): Promise<CheckedTarget> {
  const url = parseWebhookUrl(raw);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    let timer: NodeJS.Timeout | undefined;
    try {
      addresses = await Promise.race([
        lookup(host, { all: true, verbatim: true }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('lookup timed out')), LOOKUP_TIMEOUT_MS);
        }),
      ]);
    } catch {
      addresses = [];
    } finally {
      clearTimeout(timer);
    }
    if (addresses.length === 0) throw new WebhookTargetError('webhook_target_unresolvable', `The webhook host ${host} does not resolve to any address.`);
  }
  if (!options.allowPrivate) {
    const forbidden = addresses.find((a) => isForbiddenAddress(a.address));
    if (forbidden) {
      throw new WebhookTargetError('webhook_target_forbidden', `The webhook host ${host} resolves to ${forbidden.address}, a private, loopback, link-local or otherwise internal address; webhooks go to public addresses only.`);
    }
  }
  const chosen = addresses[0]!;
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
