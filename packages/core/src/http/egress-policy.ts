import { BlockList, isIP } from 'node:net';
import { EndSystemError } from '../errors/errors.js';

/**
 * Where the end-system client may connect, judged on the address it actually connects to: after DNS, and again
 * for every redirect (issue 20, finding 3). A configured URL is the user's input, so without a policy a
 * connector could be pointed at a cloud metadata endpoint (`169.254.169.254`) or an internal service and asked
 * to fetch it with its own network position.
 *
 * By default link-local and cloud-metadata addresses, multicast and reserved ranges are refused; loopback and
 * private ranges are allowed, since on-premises end systems live there.
 */
export interface EgressPolicy {
  /** Also refuse loopback (`127.0.0.0/8`, `::1`) and "this host" (`0.0.0.0/8`, `::`) addresses. @default false */
  readonly refuseLoopback?: boolean;
  /**
   * Also refuse private ranges: `10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16`, carrier-grade NAT
   * `100.64.0.0/10` and unique-local `fc00::/7`. Set it for a connector that only reaches public end systems.
   *
   * @default false
   */
  readonly refusePrivate?: boolean;
  /** More addresses or CIDR ranges to refuse, such as `'203.0.113.0/24'` or `'2001:db8::/32'`. */
  readonly refuse?: readonly string[];
  /**
   * Addresses or CIDR ranges allowed even though a rule above, or a default, refuses them. **Lowers safety**:
   * allowing a link-local range lets anyone who can configure the connector read the cloud metadata of the
   * machine it runs on. Meant for an end system that really lives at such an address.
   */
  readonly allow?: readonly string[];
}

/** Why an address is refused, as said in the error: a kind of address, never the address itself. */
type Refusal =
  | 'a link-local or cloud-metadata address'
  | 'a loopback address'
  | 'a private address'
  | 'a multicast or reserved address'
  | 'an address the policy refuses';

/** Adds an address or CIDR range; an IPv4 range also in the IPv6 forms that embed IPv4 addresses. */
function addRange(list: BlockList, range: string): void {
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
      `The egress policy has a range that is not an address or CIDR range: ${JSON.stringify(range)}`,
    );
  }
  if (family === 6) {
    list.addSubnet(address, prefix, 'ipv6');
    return;
  }
  list.addSubnet(address, prefix, 'ipv4');
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

function listOf(ranges: readonly string[]): BlockList {
  const list = new BlockList();
  for (const range of ranges) addRange(list, range);
  return list;
}

const LINK_LOCAL = listOf([
  '169.254.0.0/16', // IPv4 link-local: AWS, GCP, Azure, OpenStack and Oracle metadata, ECS task credentials
  'fe80::/10',
  'fd00:ec2::254', // AWS metadata over IPv6
  '100.100.100.200', // Alibaba Cloud metadata
]);
// Multicast, reserved, and IPv6 site-local (deprecated, still routed inside some networks).
const NEVER = listOf(['224.0.0.0/4', '240.0.0.0/4', 'ff00::/8', 'fec0::/10']);
const LOOPBACK = listOf(['127.0.0.0/8', '0.0.0.0/8', '::1', '::']);
const PRIVATE = listOf([
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10',
  'fc00::/7',
]);

/**
 * A key that is the same for policies that judge alike, to share one connection pool between them.
 *
 * @internal
 */
export function egressPolicyKey(policy: EgressPolicy): string {
  return JSON.stringify([
    policy.refuseLoopback === true,
    policy.refusePrivate === true,
    [...(policy.refuse ?? [])].sort(),
    [...(policy.allow ?? [])].sort(),
  ]);
}

/**
 * An {@link EgressPolicy} made ready to judge addresses.
 *
 * @internal
 */
export class CompiledEgressPolicy {
  readonly #allow: BlockList | undefined;
  readonly #refuse: BlockList | undefined;
  readonly #refuseLoopback: boolean;
  readonly #refusePrivate: boolean;
  /** See {@link egressPolicyKey}. */
  readonly key: string;

  /** @throws TypeError when a range is not an address or CIDR range */
  constructor(policy: EgressPolicy = {}) {
    this.#allow = policy.allow?.length ? listOf(policy.allow) : undefined;
    this.#refuse = policy.refuse?.length ? listOf(policy.refuse) : undefined;
    this.#refuseLoopback = policy.refuseLoopback === true;
    this.#refusePrivate = policy.refusePrivate === true;
    this.key = egressPolicyKey(policy);
  }

  /** Why `address` (an IP literal, brackets and zone allowed) is refused, or `undefined` when it is allowed. */
  refusal(address: string): Refusal | undefined {
    const plain = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
    const family = isIP(plain);
    // Not an address: refused, since nothing else can be judged.
    if (family === 0) return 'an address the policy refuses';
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (this.#allow?.check(plain, type)) return undefined;
    if (this.#refuse?.check(plain, type)) return 'an address the policy refuses';
    if (LINK_LOCAL.check(plain, type)) return 'a link-local or cloud-metadata address';
    if (NEVER.check(plain, type)) return 'a multicast or reserved address';
    if (this.#refuseLoopback && LOOPBACK.check(plain, type)) return 'a loopback address';
    if (this.#refusePrivate && PRIVATE.check(plain, type)) return 'a private address';
    return undefined;
  }
}

/**
 * The error of a connection the egress policy refused. Names the host as the URL gave it and the kind of
 * address, never the address or the URL (which may hold credentials); the address goes to the log only.
 *
 * @internal
 */
export class EgressRefusedError extends EndSystemError {
  override readonly name: string = 'EgressRefusedError';
  constructor(
    readonly host: string,
    readonly address: string,
    reason: Refusal,
  ) {
    super(
      isIP(host.replace(/^\[|\]$/g, '')) === 0
        ? `The end system's host ${host} resolves to ${reason}, which the connector's egress policy refuses`
        : `The end system's address ${host} is ${reason}, which the connector's egress policy refuses`,
      { code: 'EGRESS_REFUSED' },
    );
  }
}
