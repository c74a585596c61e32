import { ConnectorError } from '@connector-sdk/core';
import {
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  SocketClosedUnexpectedlyError,
  TimeoutError,
} from '@redis/client';

/**
 * The contract error for a Redis command that failed: always a 503 `SERVICE_UNAVAILABLE`, so the platform
 * retries later, with a message that says why but nothing of the connection string. The client's error is
 * kept as `cause` for the log.
 *
 * @param error - what the client rejected with
 * @returns the error to throw
 */
export function storeUnavailable(error: unknown): ConnectorError {
  const why = isAuthFailure(error)
    ? 'refused the credentials'
    : error instanceof TimeoutError || error instanceof ConnectionTimeoutError
      ? 'did not answer in time'
      : error instanceof ClientOfflineError ||
          error instanceof ClientClosedError ||
          error instanceof SocketClosedUnexpectedlyError
        ? 'is not connected'
        : 'failed';
  return new ConnectorError('SERVICE_UNAVAILABLE', `The shared store (Redis) ${why}`, {
    cause: error,
  });
}

/**
 * Whether Redis refused to authenticate: a wrong password (`WRONGPASS`), none where one is needed (`NOAUTH`),
 * or an older server's wording.
 *
 * @param error - what the client rejected with or emitted
 */
export function isAuthFailure(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /^(WRONGPASS|NOAUTH)\b|invalid (username-)?password|ERR AUTH/i.test(message);
}
