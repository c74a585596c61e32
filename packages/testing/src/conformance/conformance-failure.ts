/**
 * A conformance check failed: the message says what the connector did and what to fix.
 *
 * @example
 * ```ts
 * const results = await runConformance(options);
 * // results[n].message holds the ConformanceFailure's message
 * ```
 */
export class ConformanceFailure extends Error {
  override readonly name = 'ConformanceFailure';
}
