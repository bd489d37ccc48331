import { isIPv4, isIPv6 } from 'node:net';

/**
 * The unit a per-address limit counts by: an IPv4 address (also when it arrives IPv4-mapped,
 * `::ffff:a.b.c.d`), or an IPv6 address's /64, the smallest block a network is handed: counting
 * single IPv6 addresses, one machine could try keys from 2^64 of them.
 */
export function clientAddressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight hextets of a valid IPv6 address (zone id dropped), without leading zeros. */
function expandIPv6(ip: string): string[] {
  const bare = ip.split('%')[0]!;
  const [head, tail] = bare.includes('::') ? bare.split('::') : [bare, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':') : []);
  const left = parse(head);
  const right = parse(tail);
  // An embedded IPv4 tail (`::1.2.3.4`) takes two hextets; only the first four matter here.
  const rightLength = right.length > 0 && right[right.length - 1]!.includes('.') ? right.length + 1 : right.length;
  const middle = tail === undefined ? [] : Array.from({ length: 8 - left.length - rightLength }, () => '0');
  return [...left, ...middle, ...right].map((h) => (h.includes('.') ? h : (parseInt(h, 16) || 0).toString(16)));
}
