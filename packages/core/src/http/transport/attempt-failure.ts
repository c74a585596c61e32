import { attachConnectorError } from '../../errors/attached-error.js';
import { EndSystemError } from '../../errors/errors.js';
import { networkFailure } from '../../errors/network-failure.js';
import { isHostName, unreachedHostMessage } from '../../security/egress/egress-policy.js';
import type { CallState } from '../call-state.js';
import { egressRefusal } from './attempt-abort.js';
import { proxyFailure } from './proxy-failure.js';
import { safeUrl } from './safe-url.js';

// What an attempt that got no answer becomes: its log line (the safe URL, the reason, the proxy) and the
// platform's answer attached to its error (refused by the egress policy, a name DNS does not know, a network
// failure, a timeout), and whether the call may be sent again. Apart from `policed-fetch.ts`, which sends the
// attempts, as the failure's wording and secrecy rules are a subject of their own.

/** An attempt that failed without an answer. @internal */
export interface FailedAttempt {
  readonly call: CallState;
  readonly request: Request;
  readonly durationMs: number;
}

/**
 * Logs a failed attempt and attaches the platform's answer to its error.
 *
 * @internal
 */
export function failure(error: unknown, { call, request, durationMs }: FailedAttempt): unknown {
  const { client } = call;
  let shown: string | undefined;
  const safe = () => (shown ??= safeUrl(request.url));
  const via = client.proxy && { proxy: client.proxy.origin };
  const { method } = request;
  call.failed(error, request);
  // A stream is read once: its call cannot be sent again.
  if (call.streamed) call.refuseRetry(error);
  const refused = egressRefusal(error);
  if (refused) {
    client.log.warn(
      {
        endSystem: {
          method,
          url: safe(),
          error: 'EGRESS_REFUSED',
          address: refused.address,
          reason: refused.reason,
          durationMs,
          ...via,
        },
      },
      'end-system call refused by the egress policy',
    );
    if (!isHostName(refused.host)) return refused;
    // A name is answered as one DNS does not know: see `unreachedHost`.
    const answer = unreachedHost(refused, refused.host, `${method} ${safe()}`);
    call.refuseRetry(answer);
    return answer;
  }
  const network = networkFailure(error);
  // An aborted fetch rejects with the abort's reason: a timeout, from the attempt's timer or the deadline, or
  // ky's own when a call sets `timeout`, whose message holds the raw URL.
  const timedOut = (error as Error).name === 'TimeoutError';
  if (timedOut) (error as Error).message = (error as Error).message.replaceAll(request.url, safe());
  const cause = timedOut
    ? (error as Error).message.replace(`: ${method} ${safe()}`, '')
    : network?.cause;
  client.log.warn(
    {
      endSystem: {
        method,
        url: safe(),
        error: timedOut ? 'timeout' : (network?.code ?? (error as Error).name),
        cause,
        durationMs,
        ...via,
      },
    },
    'end-system call failed',
  );
  if (!(error instanceof Error)) return error;
  // The platform's answer says which call failed and why, as an HTTP failure's does (ARCHITECTURE.md, D11).
  if (network && client.proxy) {
    attachConnectorError(
      error,
      proxyFailure(error, network, { call, proxy: client.proxy, name: `${method} ${safe()}` }),
    );
  } else if (network?.code === 'ENOTFOUND') {
    attachConnectorError(
      error,
      unreachedHost(error, new URL(request.url).hostname, `${method} ${safe()}`),
    );
    call.refuseRetry(error);
  } else if (network) {
    attachConnectorError(
      error,
      new EndSystemError(
        network.timedOut
          ? `The end system did not answer in time (${network.code})`
          : `The end system could not be reached (${network.code})`,
        {
          code: network.timedOut ? 'END_SYSTEM_TIMEOUT' : 'END_SYSTEM_UNREACHABLE',
          detail: `${method} ${safe()} failed: ${network.cause}`,
          cause: error,
        },
      ),
    );
  } else if (timedOut) {
    attachConnectorError(
      error,
      new EndSystemError('The end system did not answer in time', {
        code: 'END_SYSTEM_TIMEOUT',
        detail: `${method} ${safe()}: ${cause ?? 'no answer in time'}`,
        cause: error,
      }),
    );
  }
  return error;
}

/**
 * The answer to a host name the client does not reach, whether DNS does not know it (`ENOTFOUND`) or the egress
 * policy refuses the address it resolves to: the same status, code, wording, detail and number of attempts
 * (neither is retried, see `failure`: NXDOMAIN is DNS's final word), so that whoever initializes cannot tell an
 * internal name that exists from one that does not, nor a loopback one from a private one. The log line says
 * which it was.
 */
function unreachedHost(error: object, host: string, call: string): EndSystemError {
  return new EndSystemError(unreachedHostMessage(host), {
    code: 'END_SYSTEM_UNREACHABLE',
    detail: call,
    cause: error,
  });
}
