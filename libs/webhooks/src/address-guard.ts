import { BlockList, isIP } from 'node:net';

/**
 * Networks a webhook may never reach unless allowed (SSRF guard, docs/webhooks.md): loopback,
 * private, shared, link-local (cloud metadata at 169.254.169.254 and fd00:ec2::254), multicast,
 * reserved and documentation ranges, in IPv4 and IPv6. IPv4-mapped IPv6 addresses are checked
 * as the IPv4 address they carry.
 */
const BLOCKED: Array<[string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['64:ff9b::', 96, 'ipv6'],
  ['64:ff9b:1::', 48, 'ipv6'],
  ['100::', 64, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['fec0::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

/** The IPv4 address inside an IPv4-mapped IPv6 one (`::ffff:127.0.0.1` or `::ffff:7f00:1`). */
function mappedIpv4(address: string): string | undefined {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (dotted) return dotted;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Why an address was refused, for the delivery log. */
export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
  readonly code = 'blocked_address';
}

/**
 * Decides which IP addresses webhook deliveries may connect to: everything public, plus the
 * networks of `allow` (CIDR strings such as `127.0.0.0/8` or `::1/128`; `npm start` and the
 * tests allow loopback this way).
 */
export class AddressGuard {
  private readonly blocked = new BlockList();
  private readonly allowed = new BlockList();

  /** @throws Error when an entry of `allow` is not `address/prefix`. */
  constructor(allow: string[] = []) {
    for (const [net, prefix, type] of BLOCKED) this.blocked.addSubnet(net, prefix, type);
    for (const cidr of allow) {
      const [net, bits] = cidr.trim().split('/');
      const type = isIP(net ?? '');
      const prefix = Number(bits ?? (type === 6 ? 128 : 32));
      if (!type || !Number.isInteger(prefix)) throw new Error(`Not a network in CIDR form: ${cidr}`);
      this.allowed.addSubnet(net!, prefix, type === 6 ? 'ipv6' : 'ipv4');
    }
  }

  /** Whether `address` (an IPv4 or IPv6 literal, without brackets) may be connected to. */
  permits(address: string): boolean {
    const ip = mappedIpv4(address) ?? address;
    if (!isIP(ip)) return false;
    const type = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
    if (this.allowed.check(ip, type)) return true;
    return !this.blocked.check(ip, type);
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
