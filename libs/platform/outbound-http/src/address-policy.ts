import { BlockList, isIP } from 'node:net';

// Ranges a server-side fetch must never reach on its own: anything that is not
// globally routable unicast, because such addresses point at this host, its
// network neighbours or cloud metadata services rather than the public internet.
// Documentation/benchmark ranges are included because nothing legitimate lives
// there, so refusing them costs nothing and removes odd corners.
const FORBIDDEN_V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches localhost on Linux
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT, often internal in clouds
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, hosts cloud metadata endpoints
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes 255.255.255.255 broadcast
];

const FORBIDDEN_V6: ReadonlyArray<readonly [string, number]> = [
  ['::', 128],
  ['::1', 128],
  ['100::', 64], // discard-only
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // deprecated site-local, still routed internally by some stacks
  ['ff00::', 8], // multicast
];

const v4Block = new BlockList();
for (const [net, prefix] of FORBIDDEN_V4) v4Block.addSubnet(net, prefix, 'ipv4');
const v6Block = new BlockList();
for (const [net, prefix] of FORBIDDEN_V6) v6Block.addSubnet(net, prefix, 'ipv6');

/** Removes URL-style brackets and an IPv6 zone id (`%eth0`), which BlockList cannot match. */
export function stripIpDecoration(host: string): string {
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const zone = unbracketed.indexOf('%');
  return zone === -1 ? unbracketed : unbracketed.slice(0, zone);
}

/**
 * True when `ip` must not be contacted by server-side fetches.
 * Anything that is not an IP literal also counts as forbidden: callers must
 * resolve names first, and failing closed keeps a mistaken call from passing.
 */
export function isForbiddenAddress(ip: string): boolean {
  const bare = stripIpDecoration(ip.trim());
  const family = isIP(bare);
  if (family === 4) return v4Block.check(bare, 'ipv4');
  if (family !== 6) return true;
  if (v6Block.check(bare, 'ipv6')) return true;
  const embedded = embeddedIpv4(bare);
  return embedded !== undefined && v4Block.check(embedded, 'ipv4');
}

// Prefixes (first 12 bytes) under which the last 32 bits are an IPv4 address
// that the packet effectively goes to: IPv4-compatible (::/96), IPv4-mapped
// (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96) and NAT64 (64:ff9b::/96).
const EMBEDDING_PREFIXES: ReadonlyArray<readonly number[]> = [
  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff],
  [0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0],
  [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0],
];

function embeddedIpv4(ipv6: string): string | undefined {
  const bytes = ipv6ToBytes(ipv6);
  const embeds = EMBEDDING_PREFIXES.some((prefix) => prefix.every((b, i) => bytes[i] === b));
  if (embeds) return bytes.slice(12).join('.');
  // 6to4 (2002:V4ADDR::/48) hands traffic to a relay that forwards to the IPv4 address.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6).join('.');
  return undefined;
}

/** Expects a string already accepted by `net.isIP(...) === 6`, without zone id. */
function ipv6ToBytes(ipv6: string): number[] {
  let text = ipv6;
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    tail.push(
      ...text
        .slice(lastColon + 1)
        .split('.')
        .map(Number),
    );
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const toGroups = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const headGroups = toGroups(head);
  const restGroups = rest === undefined ? [] : toGroups(rest);
  const fill = new Array<number>(8 - headGroups.length - restGroups.length).fill(0);
  const groups = [...headGroups, ...fill, ...restGroups];
  const bytes = groups.flatMap((g) => [g >> 8, g & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}
