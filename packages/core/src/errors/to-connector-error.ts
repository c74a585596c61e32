import { attachedConnectorError } from './attached-error.js';
import { isConnectorError, type ConnectorError } from './connector-error.js';
import { networkFailure } from './network-failure.js';
import { EndSystemError, InternalError } from './errors.js';

/**
 * Turns anything thrown into a {@link ConnectorError}: connector errors pass through, as does a connector error
 * the end-system client attached to its own error; the connector's own `mapError` is asked next; a failed `fetch` becomes a 502 `END_SYSTEM_UNREACHABLE` (or a
 * 504 when the answer timed out); a `TimeoutError` (from `AbortSignal.timeout`) becomes a 504; anything else
 * becomes a 500 `INTERNAL_ERROR` with a safe message, the original kept as `cause`.
 *
 * @param error - anything caught
 * @param mapError - the connector's own mapping, tried before the fallbacks
 * @returns a connector error
 * @example
 * ```ts
 * const error = toConnectorError(caught, connector.adapter.mapError);
 * ```
 */
export function toConnectorError(
  error: unknown,
  mapError?: (error: unknown) => ConnectorError | undefined,
): ConnectorError {
  if (isConnectorError(error)) return error;
  const attached = attachedConnectorError(error);
  if (attached) return attached;
  if (mapError) {
    let mapped: ConnectorError | undefined;
    try {
      mapped = mapError(error);
    } catch (mappingError) {
      return new InternalError('The connector failed while mapping an error', {
        cause: mappingError,
      });
    }
    if (mapped !== undefined) {
      return isConnectorError(mapped)
        ? mapped
        : new InternalError(
            'The connector mapped an error to something that is not a ConnectorError',
            {
              cause: error,
            },
          );
    }
  }
  const network = networkFailure(error);
  if (network) {
    return new EndSystemError(
      network.timedOut
        ? `The end system did not answer in time (${network.code})`
        : `The end system could not be reached (${network.code})`,
      { code: network.timedOut ? 'END_SYSTEM_TIMEOUT' : 'END_SYSTEM_UNREACHABLE', cause: error },
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
