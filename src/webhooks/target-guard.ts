import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isForbiddenAddress } from './forbidden-addresses';

export { isForbiddenAddress } from './forbidden-addresses';

// Webhook targets are callers' URLs that the workers POST to from inside the network, so they
// must not reach what only the network can reach (forbidden-addresses.ts says which addresses).
//
// Registration (checkWebhookUrl) judges only what the caller wrote: the URL's form, a literal
// address, and names that are local by definition. It resolves nothing, so it neither tells a
// tenant what an internal name resolves to (or whether it resolves at all), nor refuses a public
// host because DNS failed at that moment.
//
// Each delivery attempt (checkWebhookTarget) resolves the host and checks every address it has
// (a round-robin name with one private address is refused); the sender then connects to the
// address checked here, so a second DNS answer cannot switch it (DNS rebinding). Its refusal
// says the same thing whether the name did not resolve or resolved to an internal address: the
// reason is shown to the tenant in the delivery log.
//
// WEBHOOK_ALLOW_PRIVATE_TARGETS lifts the address rule for development and tests.

/** A name that takes longer to resolve is treated as not resolving (a request must not hang on it). */
const LOOKUP_TIMEOUT_MS = 5000;

export type TargetProblem = 'invalid_webhook_url' | 'webhook_target_forbidden' | 'webhook_target_unresolvable';

export class WebhookTargetError extends Error {
  constructor(
    readonly code: TargetProblem,
    message: string,
  ) {
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
 * Names that only ever mean this machine or its local network (RFC 6761, 6762, 8375, and the
 * `.internal` zone reserved for private use): refused without resolving them. A single label
 * (`postgres`, `temporal`) is a name on the local search path, never a public host.
 */
function isLocalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return !name.includes('.') || /(^|\.)(localhost|local|internal|home\.arpa)$/.test(name);
}

/** Every address a name has (DNS by default; a test passes its own). */
export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

const PUBLIC_ONLY = 'webhooks go to public addresses only';

/**
 * What registration checks: the URL's form and, unless `allowPrivate`, a literal address or a
 * local name. Resolves nothing. Throws WebhookTargetError.
 */
export function checkWebhookUrl(raw: string, options: { allowPrivate: boolean }): URL {
  const url = parseWebhookUrl(raw);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // RFC 6761: `.invalid` never resolves, anywhere.
  if (/(^|\.)invalid\.?$/i.test(host)) throw new WebhookTargetError('webhook_target_unresolvable', `The webhook host ${host} is under .invalid, a name that never resolves.`);
  if (options.allowPrivate) return url;
  if (isIP(host) && isForbiddenAddress(host)) {
    throw new WebhookTargetError('webhook_target_forbidden', `The webhook address ${host} is a private, loopback, link-local or otherwise internal address; ${PUBLIC_ONLY}.`);
  }
  if (!isIP(host) && isLocalName(host)) throw new WebhookTargetError('webhook_target_forbidden', `The webhook host ${host} is a local name; ${PUBLIC_ONLY}.`);
  return url;
}

/**
 * What each delivery attempt checks: checkWebhookUrl, then the host resolved, refusing
 * forbidden addresses unless `allowPrivate`. Throws WebhookTargetError, with a reason that
 * discloses nothing about the network (it lands in the tenant's delivery log); returns the
 * address to connect to.
 */
export async function checkWebhookTarget(raw: string, options: { allowPrivate: boolean; resolve?: Resolve }): Promise<CheckedTarget> {
  const url = checkWebhookUrl(raw, options);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) return { url, address: host, family: isIP(host) === 6 ? 6 : 4 };
  const resolve = options.resolve ?? ((name: string) => lookup(name, { all: true, verbatim: true }));
  let addresses: { address: string; family: number }[];
  let timer: NodeJS.Timeout | undefined;
  try {
    addresses = await Promise.race([
      resolve(host),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('lookup timed out')), LOOKUP_TIMEOUT_MS);
      }),
    ]);
  } catch {
    addresses = [];
  } finally {
    clearTimeout(timer);
  }
  const refused = new WebhookTargetError('webhook_target_forbidden', `target refused: the host did not resolve to a public address (no answer, or an internal one); ${PUBLIC_ONLY}.`);
  if (addresses.length === 0) {
    // With private targets allowed nothing is disclosed to protect: say what happened.
    if (options.allowPrivate) throw new WebhookTargetError('webhook_target_unresolvable', `target refused: the host ${host} does not resolve.`);
    throw refused;
  }
  if (!options.allowPrivate && addresses.some((a) => isForbiddenAddress(a.address))) throw refused;
  const chosen = addresses[0]!;
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
