import { BlockList, isIP } from 'node:net';

// The addresses no webhook may reach (docs/webhooks.md, "Where events may go"): private,
// loopback, link-local, CGNAT, multicast, reserved or unspecified, v4 or v6, and every IPv6 form
// that carries an IPv4 address to a translator or tunnel. A NAT64 gateway sends
// [64:ff9b::a00:5] to 10.0.0.5, so such an address is judged by the IPv4 address inside it: a
// public one stays allowed where the range is a translation range in use today (IPv4-mapped,
// SIIT, NAT64's well-known prefix, 6to4); ranges that are deprecated or translate by other means
// (IPv4-compatible ::/96, site-local fec0::/10, Teredo) are refused whole.

const FORBIDDEN_V4 = new BlockList();
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
] as const)
  FORBIDDEN_V4.addSubnet(network, prefix, 'ipv4');

const FORBIDDEN_V6 = new BlockList();
for (const [network, prefix] of [
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed inside some networks)
  ['ff00::', 8], // multicast
  ['64:ff9b:1::', 48], // local-use NAT64: translates to whatever the operator chose
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo: the client's IPv4 address rides obfuscated in the low bits
  ['2001:db8::', 32], // documentation
] as const)
  FORBIDDEN_V6.addSubnet(network, prefix, 'ipv6');

/** The eight 16-bit groups of a valid IPv6 address (zone dropped, a trailing dotted quad folded in). */
export function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [head, tail] = text.split('::') as [string, string | undefined];
  const front = parse(head);
  const back = parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

const v4From = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
const zeros = (groups: number[], from: number, to: number) => groups.slice(from, to).every((group) => group === 0);

/**
 * The IPv4 address an IPv6 address hands to a translator, when it is in a translation range;
 * null for a plain IPv6 address. `forbidden` for ::/96 (IPv4-compatible: deprecated, never
 * legitimate as a target; it holds :: and ::1 too).
 */
function embeddedIpv4(groups: number[]): string | 'forbidden' | null {
  const [g0, g1, g2, , g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  if (zeros(groups, 0, 6)) return 'forbidden'; // ::/96
  if (zeros(groups, 0, 5) && g5 === 0xffff) return v4From(g6, g7); // ::ffff:0:0/96, IPv4-mapped
  if (zeros(groups, 0, 4) && g4 === 0xffff && g5 === 0) return v4From(g6, g7); // ::ffff:0:0:0/96, SIIT
  if (g0 === 0x64 && g1 === 0xff9b && zeros(groups, 2, 6)) return v4From(g6, g7); // 64:ff9b::/96, NAT64
  if (g0 === 0x2002) return v4From(g1, g2); // 2002::/16, 6to4: the relay's IPv4 address in bits 16-47
  return null;
}

/** True for an address no webhook may reach; an IPv6 address carrying IPv4 is judged by that IPv4 address. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return FORBIDDEN_V4.check(address, 'ipv4');
  if (family !== 6) return true;
  const groups = ipv6Groups(address);
  const inner = embeddedIpv4(groups);
  if (inner === 'forbidden') return true;
  if (inner !== null) return FORBIDDEN_V4.check(inner, 'ipv4');
  return FORBIDDEN_V6.check(groups.map((group) => group.toString(16)).join(':'), 'ipv6');
}
