/**
 * The budget a request without a valid API key counts on: its address. An IPv4 address is one budget. An
 * IPv6 address counts by its /64: a /64 is one link's subnet (RFC 4291 §2.5.4), and a single customer or
 * host is routinely given a /64 or more (RFC 6177), so a client that may use any of 2^64 addresses would
 * otherwise hold 2^64 budgets. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, RFC 4291 §2.5.5.2: what a
 * dual-stack socket reports for an IPv4 peer) is its IPv4 address.
 */
import { isIPv4, isIPv6 } from 'node:net';

const GROUPS = 8;

export function addressBudgetKey(ip: string): string {
  // a zone index (`fe80::1%eth0`, RFC 4007 §11) names the interface, not the peer
  const address = ip.split('%')[0]!;
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [high, low] = [groups[6]!, groups[7]!];
    const v4 = [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
    if (isIPv4(v4)) return v4;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, an IPv4 tail as its two groups). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const before = head === '' ? [] : head.split(':');
  const after = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(GROUPS - before.length - after.length).fill('0');
  return [...before, ...zeros, ...after].map((g) => Number.parseInt(g, 16));
}
