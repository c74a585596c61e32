import { attachedConnectorError } from './attached-error.js';
import { isConnectorError, type ConnectorError } from './connector-error.js';
import { networkFailure } from './network-failure.js';
import { EndSystemError, InternalError } from './errors.js';

/** The SDK's own answer to a thrown value that is not a connector error. */
function sdkMapping(error: unknown): ConnectorError {
  const attached = attachedConnectorError(error);
  if (attached) return attached;
  const network = networkFailure(error);
  if (network) {
    return new EndSystemError(
      network.code === 'UND_ERR_BODY_TIMEOUT'
        ? `The end system stopped sending its answer part-way (${network.code})`
        : network.timedOut
          ? `The end system did not answer in time (${network.code})`
          : `The end system could not be reached (${network.code})`,
      {
        code: network.timedOut ? 'END_SYSTEM_TIMEOUT' : 'END_SYSTEM_UNREACHABLE',
        detail: network.cause,
        cause: error,
      },
    );
  }
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new EndSystemError('The end system did not answer in time', {
      code: 'END_SYSTEM_TIMEOUT',
      cause: error,
    });
  }
  return new InternalError('The connector failed unexpectedly', { cause: error });
}

/**
 * Turns anything thrown into a {@link ConnectorError}. Connector errors pass through. Anything else gets the
 * SDK's mapping: the one the end-system client attached to its own error, else a failed `fetch` becomes a 502
 * `END_SYSTEM_UNREACHABLE` (or a 504 when the answer timed out), a `TimeoutError` a 504, anything else a 500
 * `INTERNAL_ERROR` with a safe message and the original as `cause`. The connector's own `mapError` sees the
 * thrown value and that mapping, and may replace it.
 *
 * @param error - anything caught
 * @param mapError - the connector's own mapping: gets the error and the SDK's mapping of it, returns a
 *   replacement or `undefined` to keep the SDK's
 * @returns a connector error
 * @example
 * ```ts
 * import { toConnectorError, type Connector } from '@connector-sdk/core';
 * declare const connector: Connector;
 * declare const caught: unknown;
 * const error = toConnectorError(caught, connector.adapter.mapError);
 * ```
 */
export function toConnectorError(
  error: unknown,
  mapError?: (error: unknown, mapped: ConnectorError) => ConnectorError | undefined,
): ConnectorError {
  if (isConnectorError(error)) return error;
  const mapped = sdkMapping(error);
  if (!mapError) return mapped;
  let own: ConnectorError | undefined;
  try {
    own = mapError(error, mapped);
  } catch (mappingError) {
    return new InternalError('The connector failed while mapping an error', {
      cause: mappingError,
    });
  }
  if (own === undefined) return mapped;
  return isConnectorError(own)
    ? own
    : new InternalError('The connector mapped an error to something that is not a ConnectorError', {
        cause: error,
      });
}
