import { EndSystemError } from '../../errors/errors.js';
import type { NetworkFailure } from '../../errors/network-failure.js';
import type { ProxyTarget } from './proxy-target.js';
import type { CallState } from '../call-state.js';

/** How undici reports a proxy that did not open its tunnel: "Proxy response (407) !== 200 when HTTP Tunneling". */
const PROXY_REFUSAL = /Proxy response \((\d{3})\)/;

/** A call through a proxy, as {@link proxyFailure} names it. @internal */
export interface ProxiedCall {
  /** The call's state: a tunnel refused with a 4xx ends it. */
  readonly call: CallState;
  readonly proxy: ProxyTarget;
  /** The method and the URL made safe, for the detail. */
  readonly name: string;
}

/**
 * The contract error of a call through a proxy that failed at the network level: a proxy that refused the
 * tunnel (its status said; a 4xx is not retried: it refuses the next attempt too, and a proxy that counts
 * failed logins may lock the account), or one that could not be reached or broke the connection. The detail
 * names the proxy by its origin, never its credentials.
 *
 * @param error - the attempt's failure, thrown to ky
 * @param network - what the failure says of the network
 * @param through - the call, its proxy and its name
 * @internal
 */
export function proxyFailure(
  error: Error,
  network: NetworkFailure,
  { call, proxy, name }: ProxiedCall,
): EndSystemError {
  const status = PROXY_REFUSAL.exec(network.cause)?.[1];
  if (status !== undefined) {
    if (status.startsWith('4')) call.refuseRetry(error);
    const why = status === '407' ? ': its credentials are missing or wrong' : '';
    return new EndSystemError(`The proxy refused to connect to the end system (${status}${why})`, {
      code: 'END_SYSTEM_UNREACHABLE',
      detail: `${name} through the proxy ${proxy.origin}: the proxy answered ${status} to CONNECT`,
      cause: error,
    });
  }
  return new EndSystemError(
    network.timedOut
      ? `The end system did not answer in time through the proxy (${network.code})`
      : `The end system could not be reached through the proxy (${network.code})`,
    {
      code: network.timedOut ? 'END_SYSTEM_TIMEOUT' : 'END_SYSTEM_UNREACHABLE',
      detail: `${name} through the proxy ${proxy.origin} failed: ${network.cause}`,
      cause: error,
    },
  );
}
