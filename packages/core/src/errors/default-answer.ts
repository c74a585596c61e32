import type { ConnectorError } from './connector-error.js';

const DEFAULT = Symbol.for('@connector-sdk/core.defaultAnswer');

/**
 * Marks an error as the SDK's default answer (a row of the end-system client's default table), so that code
 * which knows more, such as initialize knowing that a 401 there is a refused login and not an expired session
 * (ARCHITECTURE.md, D12), may answer otherwise; an answer the author chose (a rule, `mapError`, an error thrown)
 * is never marked.
 *
 * @param error - the default answer
 * @returns the same error
 * @internal
 */
export function markDefaultAnswer<T extends ConnectorError>(error: T): T {
  Object.defineProperty(error, DEFAULT, { value: true });
  return error;
}

/** Whether an error is the SDK's default answer, not one the author chose. @internal */
export function isDefaultAnswer(error: ConnectorError): boolean {
  return (error as { [DEFAULT]?: unknown })[DEFAULT] === true;
}

/**
 * A detail that names the end system's own code, for an answer whose `errors.code` is the SDK's: the platform
 * tells the kind of failure by the SDK's code, and a human still finds the end system's.
 *
 * @internal
 */
export function detailWithCode(
  code: string | undefined,
  detail: string | undefined,
): string | undefined {
  if (code === undefined) return detail;
  // After the detail, which starts with the call that failed.
  const quoted = JSON.stringify(code.slice(0, 100));
  return detail === undefined
    ? `The end system's code: ${quoted}`
    : `${detail} (the end system's code: ${quoted})`;
}
