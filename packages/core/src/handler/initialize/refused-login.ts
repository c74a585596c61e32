import { attachConnectorError, attachedConnectorError } from '../../errors/attached-error.js';
import { isConnectorError } from '../../errors/connector-error.js';
import { detailWithCode, isDefaultAnswer } from '../../errors/default-answer.js';
import { UnauthenticatedError } from '../../errors/errors.js';

/**
 * What initialize answers for an end-system 401 (ARCHITECTURE.md, D12). The end-system client's default table
 * answers a 401 `SESSION_EXPIRED`, which is right on a later call: the platform initializes again and goes on.
 * Out of initialize it is a refused login, and the platform would initialize again with the same wrong
 * password, for ever (and lock the account where the end system counts failed logins). So an error thrown out
 * of initialize whose SDK answer is that default row is answered `401 AUTHENTICATION_FAILED`, the end system's
 * message in the message and its code in `detail`. An answer the author chose is left as it is: a rule of the
 * client's (whatever its code), a `ConnectorError` thrown; `mapError` still sees the new answer as `mapped`.
 *
 * @param error - what initialize threw
 * @returns the same value, with its answer replaced when it was the default 401
 * @internal
 */
export function refusedLogin(error: unknown): unknown {
  if (isConnectorError(error)) return error;
  const answer = attachedConnectorError(error);
  if (answer?.code !== 'SESSION_EXPIRED' || !isDefaultAnswer(answer)) return error;
  return attachConnectorError(
    error as object,
    new UnauthenticatedError(`The end system refused the credentials: ${answer.message}`, {
      code: 'AUTHENTICATION_FAILED',
      detail: detailWithCode(answer.endSystemCode, answer.detail),
      cause: answer.cause,
    }),
  );
}
