import type { CompiledField } from '../connector/compile-connector.js';
import { UnauthenticatedError } from '../errors/errors.js';
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
  for (const field of fields) {
    const value = headers[field.lower];
    if (field.secret && value !== undefined) redactor.add(value);
  }
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && looksSecret(name)) redactor.add(value);
  }
  const result = readFields(fields, (field) => headers[field.lower]);
  if (result.ok) return result.values;
  if (fields.every((field) => headers[field.lower] === undefined)) {
    throw new UnauthenticatedError(
      'No session: initialize first (the session headers are missing)',
      {
        code: 'SESSION_MISSING',
      },
    );
  }
  throw new UnauthenticatedError(`The session is invalid: ${describeProblems(result.problems)}`, {
    code: 'SESSION_INVALID',
  });
}
