import type { RawQuery } from '../../contract/connector-request.js';
import { ValidationError } from '../../errors/errors.js';

/**
 * One query parameter of the contract, given at most once.
 *
 * @throws ValidationError `INVALID_PARAMETER` when it is required and missing or empty, or given twice
 * @internal
 */
export function queryParam(query: RawQuery, name: string, required: true): string;
export function queryParam(query: RawQuery, name: string, required: boolean): string | undefined;
export function queryParam(query: RawQuery, name: string, required: boolean): string | undefined {
  const value = query[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || value === '') {
    throw new ValidationError(
      value === undefined || value === ''
        ? `The query parameter '${name}' is required`
        : `The query parameter '${name}' must be given once`,
      { code: 'INVALID_PARAMETER' },
    );
  }
  return value;
}
