import type { buildConnector, ProxyAgent } from 'undici';
import { judgeTarget } from './egress-lookup.js';
import type { CompiledEgressPolicy } from '../../security/egress/egress-policy.js';
import type { AgentConnection, TlsConnectOptions, Undici } from './policed-agent.js';
import type { ProxyTarget } from './proxy-target.js';

type Connect = buildConnector.connector;

/**
 * How a proxy agent connects: through `proxy`, to which it speaks with `proxyTls`.
 *
 * @internal
 */
export interface ProxyConnection extends AgentConnection {
  readonly proxy: ProxyTarget;
  readonly proxyTls: TlsConnectOptions;
}

/**
 * An undici proxy agent that opens a `CONNECT` tunnel per connection (also to an `http://` end system: the
 * tunnel is where the end system can be judged) and judges the end system before each tunnel is asked for.
 * The tunnel's connector is undici's, wrapped through the `factory` undici hands it to, so a refusal fails
 * the connection the way a refused connection fails, redirects included.
 *
 * @param undici - undici's module, once loaded
 * @param policy - the policy each end system is judged by before its tunnel
 * @param connection - the proxy, the TLS options to the end system and to the proxy, and the stall timeout
 * @internal
 */
export function policedProxy(
  { ProxyAgent, Pool }: Undici,
  policy: CompiledEgressPolicy,
  { proxy, tls, proxyTls, bodyTimeout }: ProxyConnection,
): ProxyAgent {
  return new ProxyAgent({
    uri: proxy.href,
    proxyTunnel: true,
    requestTls: tls as buildConnector.BuildOptions,
    proxyTls: proxyTls as buildConnector.BuildOptions,
    factory(origin, options) {
      const tunnel = (options as { connect?: Connect }).connect;
      if (typeof tunnel !== 'function') {
        throw new TypeError('undici no longer gives its proxy tunnel to the factory');
      }
      const connect: Connect = (connectOptions, callback) =>
        judgeTarget(policy, connectOptions.hostname, (refused) =>
          refused ? callback(refused, null) : tunnel(connectOptions, callback),
        );
      return new Pool(origin, { ...options, connect, bodyTimeout });
    },
  });
}
