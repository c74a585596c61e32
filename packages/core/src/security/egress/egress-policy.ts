import { isIP, type BlockList } from 'node:net';
import { EndSystemError } from '../../errors/errors.js';
import { builtInRanges, rangeList } from './address-ranges.js';

/**
 * Where the end-system client may connect, judged on the address it actually connects to: after DNS, and again
 * for every redirect (ARCHITECTURE.md, D9). A configured URL is the input of whoever initializes, so
 * by default the client reaches public addresses only: loopback, private (RFC 1918, carrier-grade NAT, IPv6
 * unique-local), link-local, cloud-metadata, multicast and reserved addresses are refused. The operator opens
 * what their end systems need with `allow`: in the handler's `egress` option or the
 * `CONNECTOR_SDK_EGRESS_ALLOW` environment variable (see {@link EGRESS_ALLOW_ENV}), or in the client's.
 *
 * @example
 * ```ts
 * import { createHandler, type Connector } from '@connector-sdk/core';
 * declare const connector: Connector;
 * createHandler(connector, {
 *   egress: {
 *     allow: ['10.20.0.0/16', 'jira.corp.example', '*.svc.cluster.local'],
 *   },
 * });
 * ```
 */
export interface EgressPolicy {
  /**
   * What may be reached although the default refuses it. Each entry is one of:
   * - an address or CIDR range (`'10.20.0.0/16'`, `'fd12:3456::/48'`, `'127.0.0.1'`): any host at that address;
   * - a host name (`'jira.corp.example'`, `'localhost'`): that host, at whatever loopback or private address its
   *   DNS gives;
   * - a wildcard domain (`'*.corp.example'`): every name under that domain, not the domain itself.
   *
   * A host name never opens a link-local or cloud-metadata address, nor does a range that merely holds one
   * (`100.64.0.0/10` holds `100.100.100.200`): only an entry that starts inside such a range does, and that
   * **lowers safety** (anyone who can initialize could read the credentials of the machine the connector runs
   * on). Allow only what your end systems need.
   *
   * @default none: public addresses only
   */
  readonly allow?: readonly string[];
  /** More addresses or CIDR ranges to refuse, such as `'203.0.113.0/24'` or `'2001:db8::/32'`. */
  readonly refuse?: readonly string[];
}

/**
 * The environment variable the handler reads the hosts and ranges its end systems may reach from, when its
 * `egress` option is absent: entries separated by commas, as in {@link EgressPolicy.allow}. The end-system
 * client reads it too when made without the request's logger.
 *
 * @example
 * ```ts
 * import { EGRESS_ALLOW_ENV } from '@connector-sdk/core';
 * // CONNECTOR_SDK_EGRESS_ALLOW="10.20.0.0/16,jira.corp.example" node dist/main.js
 * process.env[EGRESS_ALLOW_ENV]?.split(',');
 * ```
 */
export const EGRESS_ALLOW_ENV = 'CONNECTOR_SDK_EGRESS_ALLOW';

/** Why an address is refused, as said in the error: a kind of address, never the address itself. */
export type Refusal =
  | 'a link-local or cloud-metadata address'
  | 'a loopback address'
  | 'a private address'
  | 'a multicast or reserved address'
  | 'an address the policy refuses';

const HOST_NAME =
  /^(?:\*\.)?(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** A host as URLs and DNS give it, for comparing: lower-case, without brackets, zone or trailing dot. */
const plainHost = (host: string): string =>
  host
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .replace(/\.$/, '')
    .toLowerCase();

/**
 * The entries of an allow list given as text (the environment variable): split on commas, trimmed, empty ones
 * dropped.
 *
 * @internal
 */
export function parseAllowList(text: string | undefined): readonly string[] {
  if (text === undefined) return [];
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/**
 * A key that is the same for policies that judge alike, to share one connection pool between them.
 *
 * @internal
 */
export function egressPolicyKey(policy: EgressPolicy): string {
  return JSON.stringify([[...(policy.allow ?? [])].sort(), [...(policy.refuse ?? [])].sort()]);
}

/**
 * The policy that allows what either allows and refuses what either refuses: the operator's (handler or
 * environment) and the one an author gave a client.
 *
 * @internal
 */
export function mergeEgressPolicies(
  operator: EgressPolicy | undefined,
  client: EgressPolicy | undefined,
): EgressPolicy {
  if (client === undefined) return operator ?? {};
  if (operator === undefined) return client;
  return {
    allow: [...(operator.allow ?? []), ...(client.allow ?? [])],
    refuse: [...(operator.refuse ?? []), ...(client.refuse ?? [])],
  };
}

/**
 * An {@link EgressPolicy} made ready to judge addresses.
 *
 * @internal
 */
export class CompiledEgressPolicy {
  readonly #allow: BlockList | undefined;
  /** Allow entries that name a link-local or metadata address or range themselves: the only ones that open one. */
  readonly #allowMetadata: BlockList | undefined;
  readonly #refuse: BlockList | undefined;
  readonly #hosts = new Set<string>();
  readonly #domains: string[] = [];
  /** See {@link egressPolicyKey}. */
  readonly key: string;

  /** @throws TypeError when an entry is not an address, CIDR range, host name or wildcard domain */
  constructor(policy: EgressPolicy = {}) {
    const ranges: string[] = [];
    const metadata: string[] = [];
    for (const entry of policy.allow ?? []) {
      const host = typeof entry === 'string' ? plainHost(entry.trim()) : '';
      if (isIP(host) === 0 && !host.includes('/') && HOST_NAME.test(host)) {
        if (host.startsWith('*.')) this.#domains.push(host.slice(1));
        else this.#hosts.add(host);
        continue;
      }
      const range = typeof entry === 'string' ? entry.trim() : String(entry);
      // A range opens metadata only when it starts inside it: `100.64.0.0/10` (Tailscale) holds Alibaba's
      // metadata address and `fd00::/8` AWS's IPv6 one, which no operator means to open (found by review).
      const base = range.split('/')[0] ?? '';
      const family = isIP(base);
      if (family !== 0 && builtInRanges().metadata.check(base, family === 4 ? 'ipv4' : 'ipv6'))
        metadata.push(range);
      else ranges.push(range);
    }
    this.#allow = ranges.length > 0 ? rangeList(ranges) : undefined;
    this.#allowMetadata = metadata.length > 0 ? rangeList(metadata) : undefined;
    this.#refuse = policy.refuse?.length ? rangeList(policy.refuse) : undefined;
    this.key = egressPolicyKey(policy);
  }

  /** Whether the operator allowed this host by name (`host` as a URL gives it). */
  allowsHost(host: string): boolean {
    if (this.#hosts.size === 0 && this.#domains.length === 0) return false;
    const name = plainHost(host);
    return this.#hosts.has(name) || this.#domains.some((domain) => name.endsWith(domain));
  }

  /**
   * Why `address` (an IP literal, brackets and zone allowed) is refused, or `undefined` when it is allowed.
   *
   * @param address - the address connected to
   * @param host - the host name it was reached by, when it came from a name: an allowed name opens the
   * loopback and private addresses it resolves to
   */
  refusal(address: string, host?: string): Refusal | undefined {
    const plain = plainHost(address);
    const family = isIP(plain);
    // Not an address: refused, since nothing else can be judged.
    if (family === 0) return 'an address the policy refuses';
    const type = family === 4 ? 'ipv4' : 'ipv6';
    const ranges = builtInRanges();
    if (ranges.metadata.check(plain, type))
      return this.#allowMetadata?.check(plain, type)
        ? undefined
        : 'a link-local or cloud-metadata address';
    if (this.#allow?.check(plain, type)) return undefined;
    if (this.#refuse?.check(plain, type)) return 'an address the policy refuses';
    if (ranges.reserved.check(plain, type)) return 'a multicast or reserved address';
    const loopback = ranges.loopback.check(plain, type);
    const internal = loopback || ranges.private.check(plain, type);
    if (!internal || (host !== undefined && this.allowsHost(host))) return undefined;
    return loopback ? 'a loopback address' : 'a private address';
  }
}

/**
 * The error of a connection the egress policy refused. Its message names the host as the URL gave it, never the
 * address, the URL (which may hold credentials) nor the kind of address: whoever initializes chooses the URL, and
 * "loopback" or "private" would tell them what the operator's names stand for. The address and the reason go to
 * the connector's log only. It says who can open the address (the connector's operator), not how: a caller is not
 * to be taught a way round.
 *
 * @internal
 */
export class EgressRefusedError extends EndSystemError {
  override readonly name: string = 'EgressRefusedError';
  constructor(
    readonly host: string,
    readonly address: string,
    /** Why the address is refused: for the operator's log, never for the platform's answer. */
    readonly reason: Refusal,
  ) {
    super(egressRefusalMessage(host), { code: 'EGRESS_REFUSED' });
  }
}

/** Whether a host as a URL gives it is a name, rather than an address. @internal */
export function isHostName(host: string): boolean {
  return isIP(plainHost(host)) === 0;
}

/**
 * The message of a refused host, for the client's error and initialize's check alike: the same whatever the
 * reason, so that it tells a caller nothing about the operator's network.
 *
 * @internal
 */
export function egressRefusalMessage(host: string): string {
  return `The end system's ${isHostName(host) ? 'host' : 'address'} ${host} is one this connector reaches only when its operator allows it`;
}

/**
 * The message of a host name the end-system client does not reach, whether DNS does not know it or it resolves
 * to an address the policy refuses: told apart, the two would let whoever initializes learn which internal names
 * exist. It says what to check, which fixes a typo and an end system on a private network alike.
 *
 * @internal
 */
export function unreachedHostMessage(host: string): string {
  return `The end system's host ${host} could not be reached: check the host name in the URL; an end system on a private network is reached only when the connector's operator allows it`;
}
