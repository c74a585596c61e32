import { ValidationError } from '../../errors/errors.js';

/** Most characters a platform id (`sdkSessionId`, `systemId`) may have. */
export const MAX_ID_LENGTH = 256;

// Control characters, line separators and lone surrogates: none belongs in an id, and a lone surrogate cannot
// even be encoded into the session's id header (encodeURIComponent throws). Anything else is encoded there.
const BAD_ID_CHARACTER =
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why a platform id is unusable, or `undefined` when it is fine: checked before any connector code runs, so
 * a 7,000-character id is a 400, not a login that ran for nothing and a 500 (ARCHITECTURE.md, D3).
 *
 * @internal
 */
export function idProblem(id: string): string | undefined {
  if (id.length === 0) return 'is empty';
  if (id.length > MAX_ID_LENGTH) return `is longer than ${MAX_ID_LENGTH} characters`;
  if (BAD_ID_CHARACTER.test(id)) return 'contains a control character or broken Unicode';
  return undefined;
}

/**
 * Checks a platform id given in the path or the query.
 *
 * @param what - how the message names it, such as `the query parameter 'systemId'`
 * @throws ValidationError `INVALID_PARAMETER`, which never quotes the id
 * @internal
 */
export function checkId(id: string, what: string): string {
  const problem = idProblem(id);
  if (problem) throw new ValidationError(`${what} ${problem}`, { code: 'INVALID_PARAMETER' });
  return id;
}
