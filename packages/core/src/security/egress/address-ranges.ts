import { BlockList, isIP } from 'node:net';

/**
 * Adds an address or CIDR range to `list`; an IPv4 range also in the IPv6 forms that embed IPv4 addresses,
 * unless `embedded` is false.
 *
 * @param embedded - whether an IPv4 range also covers its NAT64, IPv4-compatible, SIIT and 6to4 forms: right for
 * a range to refuse (each reaches the IPv4 address), wrong for callers to admit (anyone can send from such an
 * IPv6 address; an IPv4 peer on a dual-stack socket shows as IPv4-mapped, which the list always matches)
 * @throws TypeError when `range` is not an address or CIDR range
 * @internal
 */
export function addRange(list: BlockList, range: string, embedded = true): void {
  const slash = range.lastIndexOf('/');
  const address = slash === -1 ? range : range.slice(0, slash);
  const family = isIP(address);
  const bits = family === 4 ? 32 : 128;
  const prefix = slash === -1 ? bits : Number(range.slice(slash + 1));
  if (
    family === 0 ||
    !Number.isInteger(prefix) ||
    prefix < 0 ||
    prefix > bits ||
    (slash !== -1 && !/^\d+$/.test(range.slice(slash + 1)))
  ) {
    throw new TypeError(
      `The egress policy has an entry that is not an address, CIDR range or host name: ${JSON.stringify(range)}`,
    );
  }
  if (family === 6) {
    list.addSubnet(address, prefix, 'ipv6');
    return;
  }
  list.addSubnet(address, prefix, 'ipv4');
  if (!embedded) return;
  // The same range inside the IPv6 forms that embed an IPv4 address in their last or leading bits: NAT64's
  // well-known prefix, IPv4-compatible and SIIT-translated addresses (IPv4-mapped ones Node's BlockList knows),
  // and 6to4.
  const [a = 0, b = 0, c = 0, d = 0] = address.split('.').map(Number);
  const high = ((a << 8) | b).toString(16);
  const low = ((c << 8) | d).toString(16);
  list.addSubnet(`64:ff9b::${high}:${low}`, 96 + prefix, 'ipv6');
  list.addSubnet(`::${high}:${low}`, 96 + prefix, 'ipv6');
  list.addSubnet(`::ffff:0:${high}:${low}`, 96 + prefix, 'ipv6');
  list.addSubnet(`2002:${high}:${low}::`, 16 + prefix, 'ipv6');
}

/** @internal A block list of `ranges` (see {@link addRange}). */
export function rangeList(ranges: readonly string[], embedded = true): BlockList {
  const list = new BlockList();
  for (const range of ranges) addRange(list, range, embedded);
  return list;
}

/**
 * Link-local and cloud-metadata addresses: refused even for a host name the operator allows, since a name that
 * resolves there reads the credentials of the machine the connector runs on. Only an address entry opens one.
 *
 */
const metadata = (): BlockList =>
  rangeList([
    '169.254.0.0/16', // IPv4 link-local: AWS, GCP, Azure, OpenStack and Oracle metadata, ECS task credentials
    'fe80::/10',
    'fd00:ec2::254', // AWS metadata over IPv6
    '100.100.100.200', // Alibaba Cloud metadata
    '168.63.129.16', // Azure's WireServer (host agent, DNS, health probes)
    '192.0.0.192', // Oracle Cloud metadata
  ]);

/**
 * Multicast, reserved and special-purpose ranges: IETF protocol assignments, benchmarking, IPv6 site-local
 * (deprecated, still routed inside some networks), NAT64's local-use prefix (RFC 8215), which translates to
 * any IPv4 address of the operator's own network, Teredo (RFC 4380: a relay reaches the IPv4 address hidden in
 * the client's), ORCHID and ORCHIDv2 (RFC 4843, 7343: identifiers, not locators), IPv6 documentation (RFC 3849,
 * 9637) and the discard-only prefix (RFC 6666).
 *
 */
const reserved = (): BlockList =>
  rangeList([
    '224.0.0.0/4',
    '240.0.0.0/4',
    '192.0.0.0/24',
    '198.18.0.0/15',
    'ff00::/8',
    'fec0::/10',
    '64:ff9b:1::/48',
    '2001::/32',
    '2001:10::/28',
    '2001:20::/28',
    '2001:db8::/32',
    '3fff::/20',
    '100::/64',
  ]);

/** Loopback and "this host". */
const loopback = (): BlockList => rangeList(['127.0.0.0/8', '0.0.0.0/8', '::1', '::']);

/** Private ranges: RFC 1918, carrier-grade NAT (RFC 6598) and IPv6 unique-local (RFC 4193). */
const privateRanges = (): BlockList =>
  rangeList(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7']);

/** The ranges every egress policy judges an address by. */
export interface BuiltInRanges {
  readonly metadata: BlockList;
  readonly reserved: BlockList;
  readonly loopback: BlockList;
  readonly private: BlockList;
}

let builtIn: BuiltInRanges | undefined;

/**
 * The built-in ranges, made on first use: making them costs about 10 ms (Node compiles its IPv6 pattern on the
 * first `isIP` of a process), which every connector paid at import when they were module constants
 * (ARCHITECTURE.md, D19), though only a handler's first policy needs them.
 *
 * @internal
 */
export function builtInRanges(): BuiltInRanges {
  return (builtIn ??= {
    metadata: metadata(),
    reserved: reserved(),
    loopback: loopback(),
    private: privateRanges(),
  });
}
