// A text field, the one schema behind both field.string() and field.secret(): its length and pattern checks,
// written once for zod (the error messages) and once as the fast parser every request runs.
import { z } from 'zod';
import { INVALID, withFastParse } from './fast-parse.js';

/**
 * Options of {@link field}.string().
 *
 * @example
 * ```ts
 * import { field, type StringFieldOptions } from '@connector-sdk/core';
 *
 * const projectKey: StringFieldOptions = {
 *   maxLength: 10,
 *   pattern: /^[A-Z][A-Z0-9]*$/,
 *   patternDescription: 'an upper-case project key, such as ACME',
 * };
 * const config = { project: field.string(projectKey) };
 * ```
 */
export interface StringFieldOptions {
  /** Smallest length after trimming. @default 1 (a required string must not be blank) */
  readonly minLength?: number;
  /** Largest length. */
  readonly maxLength?: number;
  /** A pattern the value must match, described in the error message by `patternDescription`. */
  readonly pattern?: RegExp;
  /** How to describe `pattern` to a user. @default "the expected format" */
  readonly patternDescription?: string;
}

/**
 * A text field. Given the check that marks a secret (see `isMarkedSecret`), it is a secret one: not trimmed,
 * and carrying that check first, so zod copies it onto every schema made from it.
 *
 * @internal
 */
export function textField(
  options: StringFieldOptions = {},
  secretMark?: z.core.$ZodCheck<string>,
): z.ZodString {
  const min = options.minLength ?? 1;
  const secret = secretMark !== undefined;
  const trim = !secret;
  let schema = secret ? z.string() : z.string().trim();
  if (secret) schema = schema.check(secretMark);
  schema = schema.min(min, {
    error: min === 1 ? 'must not be empty' : `must be at least ${min} characters`,
  });
  if (options.maxLength !== undefined) {
    schema = schema.max(options.maxLength, {
      error: `must be at most ${options.maxLength} characters`,
    });
  }
  const { maxLength, pattern } = options;
  if (pattern) {
    schema = schema.regex(pattern, {
      error: `must match ${options.patternDescription ?? 'the expected format'}`,
    });
  }
  return withFastParse(schema, (raw) => {
    if (typeof raw !== 'string') return INVALID;
    const value = trim ? raw.trim() : raw;
    if (value.length < min || (maxLength !== undefined && value.length > maxLength)) return INVALID;
    if (pattern) {
      pattern.lastIndex = 0;
      if (!pattern.test(value)) return INVALID;
    }
    return value;
  });
}
