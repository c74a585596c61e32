import type { Dispatcher } from 'undici';
import {
  CompiledEgressPolicy,
  egressPolicyKey,
  type EgressPolicy,
} from '../../security/egress/egress-policy.js';
import type { EndSystemTlsOptions } from '../end-system-client-options.js';
import { secureContextOf, tlsKeyOf } from './end-system-tls.js';
import { policedAgent, type TlsConnectOptions, type Undici } from './policed-agent.js';
import { policedProxy } from './proxy-agent.js';
import type { ProxyTarget } from './proxy-target.js';
import { bodyTimeoutOf } from './stall-timeout.js';

export { proxyTarget, type ProxyTarget } from './proxy-target.js';

/**
 * undici, loaded on first use: importing it costs about 65 ms, which a connector that never calls an end system
 * (or not yet) should not pay at start-up. Clients start the load when they are made; calls wait for it.
 */
let undici: Promise<Undici> | undefined;

/** What the end-system client sends its requests to: an agent of undici's (fetch only calls `dispatch`). */
export type EndSystemDispatcher = Pick<Dispatcher, 'dispatch'>;

/** How the client connects, besides where it may: see `EndSystemClientOptions`. */
export interface ConnectionOptions {
  readonly tls?: EndSystemTlsOptions | undefined;
  readonly proxy?: ProxyTarget | undefined;
  /** undici's `bodyTimeout`, from the client's `stallTimeoutMs` (see `bodyTimeoutOf`); 30 s when left out. */
  readonly bodyTimeout?: number | undefined;
}

/**
 * Agents by policy, TLS options, proxy and stall timeout: clients are made per request, their connection pools
 * are shared.
 */
const agents = new Map<string, Promise<EndSystemDispatcher>>();
/**
 * A connector has a handful of policies, TLS options and proxies. More at once (a CA per connection, from a
 * configuration field) works, but those that come back after sixteen others are made again, pool and trust
 * store included.
 */
const MAX_AGENTS = 16;
const DEFAULT_BODY_TIMEOUT = bodyTimeoutOf();

/**
 * The undici dispatcher that enforces `policy` for the end-system client, with its TLS options, proxy and stall
 * timeout, once undici is loaded. Agents are shared by clients whose policies judge alike and whose TLS options,
 * proxy and stall timeout are the same, and by no others: a CA, a client certificate or a proxy never reaches a
 * client that did not ask for it (nor does a TLS session resumed without the checks its CA made). Past
 * {@link MAX_AGENTS} different keys, the least recently used is forgotten.
 *
 * @throws TypeError, at once, when a range of the policy is not an address or CIDR range, or the TLS options
 * cannot be loaded
 * @internal
 */
export function egressDispatcher(
  policy: EgressPolicy = {},
  connection: ConnectionOptions = {},
): Promise<EndSystemDispatcher> {
  const { tls: tlsOptions, proxy, bodyTimeout = DEFAULT_BODY_TIMEOUT } = connection;
  let key = egressPolicyKey(policy);
  if (tlsOptions) key += ` tls:${tlsKeyOf(tlsOptions)}`;
  if (proxy) key += ` proxy:${proxy.key}`;
  if (bodyTimeout !== DEFAULT_BODY_TIMEOUT) key += ` stall:${bodyTimeout}`;
  let agent = agents.get(key);
  if (agent !== undefined) {
    // Used last, forgotten last: an agent every request uses outlives sixteen made once (a CA per connection).
    agents.delete(key);
    agents.set(key, agent);
  } else {
    const compiled = new CompiledEgressPolicy(policy);
    // Made before the agent is cached, so options that cannot be loaded throw here, from the client's maker.
    const context = tlsOptions && secureContextOf(tlsOptions, true);
    const connectTls: TlsConnectOptions = context ? { secureContext: context } : {};
    const proxyTls: TlsConnectOptions =
      proxy?.tls && tlsOptions?.ca !== undefined
        ? { secureContext: secureContextOf(tlsOptions, false) }
        : {};
    agent = (undici ??= import('undici')).then((loaded) =>
      proxy
        ? policedProxy(loaded, compiled, { proxy, tls: connectTls, proxyTls, bodyTimeout })
        : policedAgent(loaded, compiled, { tls: connectTls, bodyTimeout }),
    );
    // Awaited by the calls; a client made and never used must not leave an unhandled rejection.
    agent.catch(() => undefined);
    // The least recently used is forgotten, not closed: clients made with it may still be calling. Its idle
    // sockets do not keep the process alive, and it is collected with the last client that holds it.
    if (agents.size >= MAX_AGENTS) {
      const [oldest] = agents;
      if (oldest) agents.delete(oldest[0]);
    }
    agents.set(key, agent);
  }
  return agent;
}
