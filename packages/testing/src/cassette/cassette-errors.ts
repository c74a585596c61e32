/**
 * A request a replay could not answer: no recorded exchange of the test matches it. The message names the
 * closest recorded call and how the request differs, with the request's secrets masked.
 *
 * @example
 * ```ts
 * const cassette = await startCassette({ path: 'test/cassettes/records.json' });
 * await cassette.stop(); // throws CassetteMismatchError if a request found no recording
 * ```
 */
export class CassetteMismatchError extends Error {
  override readonly name = 'CassetteMismatchError';
}

/**
 * A recording that still held a secret after scrubbing, so it was not written. The message says where (test,
 * exchange, header or body), never what.
 *
 * @example
 * ```ts
 * try {
 *   await cassette.stop();
 * } catch (error) {
 *   if (error instanceof CassetteLeakError) console.error(error.message); // where, never what
 * }
 * ```
 */
export class CassetteLeakError extends Error {
  override readonly name = 'CassetteLeakError';
}
