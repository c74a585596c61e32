/**
 * Makes an error without capturing a stack trace. For the errors the SDK raises itself on bad requests (no
 * session, unknown route, rate limit reached): their stack only ever points into the SDK, and capturing it cost
 * more than the rest of answering a 401 (about 7 µs of 16; ARCHITECTURE.md, D20). The limit is restored before
 * anything else can run.
 *
 * @param make - constructs the error
 * @returns the error, with an empty stack
 * @internal
 */
export function stackless<T extends Error>(make: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
