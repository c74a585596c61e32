import { isIP, type Socket } from 'node:net';
import type { SecureContext } from 'node:tls';
import type * as UndiciModule from 'undici';
import type { Agent, buildConnector } from 'undici';
import { checkedLookup } from './egress-lookup.js';
import {
  EgressRefusedError,
  type CompiledEgressPolicy,
} from '../../security/egress/egress-policy.js';

/**
 * undici's module, as `import('undici')` gives it: only its type is imported here, so undici stays unloaded
 * until the first client is made.
 *
 * @internal
 */
export type Undici = typeof UndiciModule;

/**
 * TLS options passed to undici's connector: the client's own secure context, when it has TLS options.
 *
 * @internal
 */
export type TlsConnectOptions = { readonly secureContext?: SecureContext };

/**
 * How an agent connects, besides where it may.
 *
 * @internal
 */
export interface AgentConnection {
  /** The TLS options of connections to the end system. */
  readonly tls: TlsConnectOptions;
  /** undici's longest wait between two chunks of an answer (`0`: none). */
  readonly bodyTimeout: number;
}

/**
 * An undici agent whose every connection, redirects included, goes through the policy.
 *
 * @param undici - undici's module, once loaded
 * @param policy - the policy every connection is judged by
 * @param connection - TLS options and stall timeout
 * @internal
 */
export function policedAgent(
  { Agent, buildConnector }: Undici,
  policy: CompiledEgressPolicy,
  { tls, bodyTimeout }: AgentConnection,
): Agent {
  const connect = buildConnector({
    ...tls,
    lookup: checkedLookup(policy),
  } as buildConnector.BuildOptions);
  return new Agent({
    bodyTimeout,
    connect(options, callback) {
      const host = options.hostname;
      // An address in the URL is connected to without a lookup: it is judged here, before any byte is sent.
      if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) {
        const reason = policy.refusal(host);
        if (reason) return callback(new EgressRefusedError(host, host, reason), null);
      }
      connect(options, (error, socket) => {
        if (error) return callback(error, null);
        // Belt and braces: the address the socket is connected to, whatever resolved it.
        const remote = (socket as Socket).remoteAddress;
        const reason = remote === undefined ? undefined : policy.refusal(remote, host);
        if (remote !== undefined && reason) {
          socket.destroy();
          return callback(new EgressRefusedError(host, remote, reason), null);
        }
        callback(null, socket);
      });
    },
  });
}
