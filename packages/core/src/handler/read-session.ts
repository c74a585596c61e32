import type { CompiledField } from '../connector/compile-connector.js';
import { UnauthenticatedError } from '../errors/errors.js';
import { stackless } from '../errors/stackless.js';
import { looksSecret, type Redactor } from '../security/redactor.js';
import { describeProblems, readFields } from './read-fields.js';

type Headers = Readonly<Record<string, string | undefined>>;

/**
 * Reads the session from the request headers (names match case-insensitively) and validates it. Secret values
 * go to the redactor first, valid or not.
 *
 * @throws UnauthenticatedError `SESSION_MISSING` when no session header is present, `SESSION_INVALID` when
 *   they fail validation: both 401, so the platform initializes again
 */
export function readSession(
  fields: readonly CompiledField[],
  headers: Headers,
  redactor: Redactor,
): Record<string, unknown> {
  let present = false;
  for (const field of fields) {
    const value = headers[field.lower];
    if (value === undefined) continue;
    present = true;
    if (field.secret) redactor.add(value);
  }
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && looksSecret(name)) redactor.add(value);
  }
  // Checked before validating: nothing to validate, and this is the common 401 (issue 8).
  if (!present && fields.some((field) => !field.optional)) {
    throw stackless(
      () =>
        new UnauthenticatedError('No session: initialize first (the session headers are missing)', {
          code: 'SESSION_MISSING',
        }),
    );
  }
  const result = readFields(fields, (field) => headers[field.lower]);
  if (result.ok) return result.values;
  throw stackless(
    () =>
      new UnauthenticatedError(`The session is invalid: ${describeProblems(result.problems)}`, {
        code: 'SESSION_INVALID',
      }),
  );
}
