import { isConnectorError, type ConnectorError } from './connector-error.js';

const ATTACHED = Symbol.for('@connector-sdk/core.attachedConnectorError');

/**
 * Attaches the connector error an error should be answered with, without changing the error itself (its
 * class still drives, for example, the client's retry decisions). {@link toConnectorError} answers with the attached
 * error.
 *
 * @param error - an error about to be thrown
 * @param answer - the connector error to answer with
 * @returns the same error
 * @internal used by the end-system client
 */
export function attachConnectorError<T extends object>(error: T, answer: ConnectorError): T {
  Object.defineProperty(error, ATTACHED, { value: answer, configurable: true });
  return error;
}

/** The connector error attached to a thrown value, if any. @internal */
export function attachedConnectorError(error: unknown): ConnectorError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const attached = (error as { [ATTACHED]?: unknown })[ATTACHED];
  return isConnectorError(attached) ? attached : undefined;
}
