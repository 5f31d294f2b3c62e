import { BlockList, isIP } from 'node:net';

/**
 * IPv4 networks a webhook may never reach unless allowed (SSRF guard, docs/webhooks.md): every
 * entry of the IANA IPv4 Special-Purpose Address Registry that is not globally reachable
 * (https://www.iana.org/assignments/iana-ipv4-special-registry; its few globally reachable
 * exceptions inside 192.0.0.0/24 are refused with it), the deprecated 6to4 relay anycast
 * 192.88.99.0/24 (RFC 7526), multicast 224.0.0.0/4 (RFC 5771) and 240.0.0.0/4 (reserved,
 * broadcast included). Cloud metadata (169.254.169.254) is link-local.
 */
const BLOCKED_IPV4: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network" (RFC 791)
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // shared address space (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (RFC 3927)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments (RFC 6890)
  ['192.0.2.0', 24], // documentation TEST-NET-1 (RFC 5737)
  ['192.88.99.0', 24], // 6to4 relay anycast, deprecated (RFC 7526)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking (RFC 2544)
  ['198.51.100.0', 24], // documentation TEST-NET-2
  ['203.0.113.0', 24], // documentation TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved (RFC 1112), 255.255.255.255 included
];

/**
 * The only IPv6 space a webhook may reach: global unicast, 2000::/3 (IANA IPv6 Address Space
 * registry, https://www.iana.org/assignments/ipv6-address-space: everything else is reserved by
 * the IETF, unique-local fc00::/7, link-local fe80::/10 or multicast ff00::/8). Refusing what
 * lies outside it refuses at once `::` and `::1`, the deprecated IPv4-compatible `::a.b.c.d`
 * (::/96, RFC 4291 2.5.5.1, whose embedded address means nothing any more), the local-use NAT64
 * prefix 64:ff9b:1::/48 (RFC 8215), discard-only 100::/64 (RFC 6666), the dummy prefix
 * 100:0:0:1::/64 (RFC 9780), SRv6 SIDs 5f00::/16 (RFC 9602), site-local fec0::/10 and the
 * metadata address fd00:ec2::254, except the forms of {@link EMBEDDED_IPV4}.
 */
const GLOBAL_IPV6: Array<[string, number]> = [['2000::', 3]];

/**
 * IPv6 networks refused inside 2000::/3: entries of the IANA IPv6 Special-Purpose Address
 * Registry (https://www.iana.org/assignments/iana-ipv6-special-registry) that are not globally
 * reachable. 2001::/23 (IETF protocol assignments) is refused whole: Teredo 2001::/32 (RFC 4380,
 * whose server and obfuscated client addresses cannot be checked as the address connected to),
 * benchmarking 2001:2::/48, ORCHID, and the anycast services inside it, none a webhook receiver.
 */
const BLOCKED_IPV6: Array<[string, number]> = [
  ['2001::', 23], // IETF protocol assignments, Teredo included (RFC 2928, RFC 4380)
  ['2001:db8::', 32], // documentation (RFC 3849)
  ['3fff::', 20], // documentation (RFC 9637)
];

/**
 * IPv6 forms that carry an IPv4 address, which is what they reach: the address is permitted
 * exactly when the IPv4 one is (IANA IPv6 Special-Purpose Address Registry, RFC 4291 2.5.5.2,
 * RFC 2765, RFC 6052 2.1, RFC 3056 2). `at`: the index of the first of the two 16-bit groups
 * holding it. `mapped`: the kernel connects to the IPv4 address itself, so an allow-list entry
 * for that IPv4 address admits it too.
 */
const EMBEDDED_IPV4: EmbeddingForm[] = [
  { net: '::ffff:0:0', prefix: 96, at: 6, mapped: true }, // IPv4-mapped, ::ffff:a.b.c.d
  { net: '::ffff:0:0:0', prefix: 96, at: 6, mapped: false }, // IPv4-translated (SIIT), ::ffff:0:a.b.c.d
  { net: '64:ff9b::', prefix: 96, at: 6, mapped: false }, // NAT64 well-known prefix
  { net: '2002::', prefix: 16, at: 1, mapped: false }, // 6to4, 2002:AABB:CCDD::/48
].map((form) => ({ ...form, list: blockListOf([[form.net, form.prefix]], 'ipv6') }));

/** One IPv6 form of {@link EMBEDDED_IPV4}, with its network as a `BlockList`. */
interface EmbeddingForm {
  net: string;
  prefix: number;
  at: number;
  mapped: boolean;
  list: BlockList;
}

/** A `BlockList` of `networks` (`[address, prefix length]`) of one family. */
function blockListOf(networks: Array<[string, number]>, type: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of networks) list.addSubnet(net, prefix, type);
  return list;
}

const blockedIpv4 = blockListOf(BLOCKED_IPV4, 'ipv4');
const globalIpv6 = blockListOf(GLOBAL_IPV6, 'ipv6');
const blockedIpv6 = blockListOf(BLOCKED_IPV6, 'ipv6');

/**
 * The eight 16-bit groups of an IPv6 literal, in any notation (compressed or not, with a dotted
 * IPv4 tail), or undefined when the WHATWG URL parser does not take it (a zone id `%eth0`...).
 * The parser does the reading and gives the canonical text (RFC 5952: lower case, longest run of
 * zeros as `::`, no dotted tail), which leaves only the `::` to expand.
 */
function groupsOf(ipv6: string): number[] | undefined {
  let canonical: string;
  try {
    canonical = new URL(`http://[${ipv6}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const parse = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [head = '', tail] = canonical.split('::');
  if (tail === undefined) return parse(head);
  const [before, after] = [parse(head), parse(tail)];
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/** Why an address was refused, for the delivery log. */
export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
  readonly code = 'blocked_address';
}

/**
 * What the guard says of an address: `public` (reachable by anyone's webhook), `allowed`
 * (refused by the rules, admitted only by the allow-list: `WEBHOOK_ALLOWED_NETWORKS`, for
 * development), or `refused`.
 */
export type Admission = 'public' | 'allowed' | 'refused';

/**
 * Decides which IP addresses webhook deliveries may connect to: everything public, plus the
 * networks of `allow` (CIDR strings such as `127.0.0.0/8` or `::1/128`; `npm start` and the
 * tests allow loopback this way). Public means: IPv4 outside {@link BLOCKED_IPV4}; IPv6 inside
 * 2000::/3 and outside {@link BLOCKED_IPV6}; and an IPv6 form that embeds an IPv4 address
 * (IPv4-mapped, IPv4-translated, NAT64 64:ff9b::/96, 6to4 2002::/16) when that IPv4 address is
 * public. The reference is IANA's special-purpose address registries for IPv4 and IPv6.
 */
export class AddressGuard {
  private readonly allowed = new BlockList();

  /**
   * @param allow networks to admit although the rules refuse them, each `address/prefix`
   *   (a bare address is a single host).
   * @throws Error naming the entry when one is not an IP network in CIDR form.
   */
  constructor(allow: string[] = []) {
    for (const cidr of allow) {
      const [net = '', bits, ...rest] = cidr.trim().split('/');
      const type = isIP(net);
      const max = type === 6 ? 128 : 32;
      const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
      if (!type || rest.length || !(prefix >= 0 && prefix <= max))
        throw new Error(`Not a network in CIDR form: ${cidr}`);
      this.allowed.addSubnet(net, prefix, type === 6 ? 'ipv6' : 'ipv4');
    }
  }

  /**
   * What the guard says of `address`, an IPv4 or IPv6 literal without brackets (anything else
   * is `refused`). The allow-list is only looked at for addresses the rules refuse, so a public
   * address is `public` even inside an allowed network.
   */
  admission(address: string): Admission {
    const type = isIP(address);
    if (type === 4)
      return blockedIpv4.check(address, 'ipv4') ? this.onlyIfAllowed(address, 'ipv4') : 'public';
    if (type !== 6) return 'refused';
    const groups = groupsOf(address);
    if (!groups || groups.length !== 8) return 'refused';
    const form = EMBEDDED_IPV4.find((f) => f.list.check(address, 'ipv6'));
    if (form) {
      const [hi, lo] = [groups[form.at]!, groups[form.at + 1]!];
      const ipv4 = [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
      if (!blockedIpv4.check(ipv4, 'ipv4')) return 'public';
      if (form.mapped && this.allowed.check(ipv4, 'ipv4')) return 'allowed';
      return this.onlyIfAllowed(address, 'ipv6');
    }
    if (globalIpv6.check(address, 'ipv6') && !blockedIpv6.check(address, 'ipv6')) return 'public';
    return this.onlyIfAllowed(address, 'ipv6');
  }

  private onlyIfAllowed(address: string, type: 'ipv4' | 'ipv6'): Admission {
    return this.allowed.check(address, type) ? 'allowed' : 'refused';
  }

  /** Whether `address` (an IPv4 or IPv6 literal, without brackets) may be connected to. */
  permits(address: string): boolean {
    return this.admission(address) !== 'refused';
  }

  /**
   * Why a URL host may not be called when it is an IP literal (brackets allowed), or undefined:
   * a name, or a permitted address (names are checked after DNS resolution, at connect time).
   */
  refusalOfLiteral(hostname: string): string | undefined {
    const host = hostname.replace(/^\[|\]$/g, '');
    return isIP(host) && !this.permits(host) ? refusedMessage(host) : undefined;
  }

  /**
   * Why a name resolving to these addresses may not be called (any refused address refuses the
   * name; so does none at all), or undefined.
   */
  refusalOfResolved(hostname: string, addresses: string[]): string | undefined {
    if (!addresses.length) return `${hostname} resolves to no address.`;
    const refused = addresses.find((a) => !this.permits(a));
    return refused === undefined ? undefined : refusedMessage(`${hostname} resolves to ${refused}, which`);
  }
}

/** The one sentence of a refused target, for 422 answers and the delivery log. */
const refusedMessage = (what: string) =>
  `${what} is a loopback, private, link-local or reserved address: deliveries there are not allowed.`;
