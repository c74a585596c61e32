import { expect } from 'vitest';
import { runConformance, type ConformanceOptions, type ConformanceResult } from '../src/index.js';

// What the tests of the checks share: running some checks and reading their results by id, and the words the
// kit fails a connector with where more than one test connector earns them, so that a test reads as what it
// expects and a changed message is changed once.

/** The results of a conformance run, by check id. */
export type ResultsById = Readonly<Record<string, ConformanceResult | undefined>>;

/**
 * Runs only the named checks against a connector.
 *
 * @param options - the connector and the configurations to try
 * @param only - the ids of the checks to run
 * @returns each check's result under its id
 */
export async function checkResults(
  options: ConformanceOptions,
  only: readonly string[],
): Promise<ResultsById> {
  const results = await runConformance(options, { only });
  return Object.fromEntries(results.map((result) => [result.id, result]));
}

/**
 * Expects a check to have failed with a message holding each part.
 *
 * @param result - the check's result
 * @param parts - texts the message contains, or patterns it matches
 */
export function expectFailed(
  result: ConformanceResult | undefined,
  parts: readonly (string | RegExp)[],
): void {
  expect(result?.status).toBe('failed');
  for (const part of parts)
    if (typeof part === 'string') expect(result?.message).toContain(part);
    else expect(result?.message).toMatch(part);
}

/**
 * Expects each named check to have passed.
 *
 * @param results - the results by check id
 * @param ids - the checks that must have passed
 */
export function expectPassed(results: ResultsById, ids: readonly string[]): void {
  for (const id of ids)
    expect(results[id], id).toEqual(expect.objectContaining({ status: 'passed' }));
}

/** `platform.expired-reads` on a tracker that serves every read but "who am I" to a revoked key. */
export const SERVED_AFTER_EXPIRY: readonly string[] = [
  'Served after the session expired',
  ...['projects', 'entityHistory', 'getEntity', 'getComments'].map(
    (name) => `platform.${name} answered 200`,
  ),
  'checkSession',
];

/** `platform.history-identity` on history that names alice by her display name under USERNAME_AS_USER. */
export const HISTORY_BY_DISPLAY_NAME: readonly string[] = [
  "History names a user 'Alice Liddell', but platform.users finds no user with that username",
  "('alice', from the configuration field 'username')",
  'notUpdatedByUser',
];

/** `platform.own-change-identity` when history names the kit's own change by the user's display name. */
export const OWN_CHANGE_BY_DISPLAY_NAME: readonly string[] = [
  "as made by 'Alice Liddell', not by the integration user ('alice'",
  'notUpdatedByUser',
];
