/**
 * The body limits every binding applies unless told otherwise, so a connector behaves the same whichever
 * binding serves it.
 *
 * @internal shared by the bindings
 */
export const DEFAULT_BODY_LIMITS = Object.freeze({
  /** Largest request body accepted, in bytes (1 MiB). */
  maxBytes: 1_048_576,
  /** Longest time a request body may take to arrive, in milliseconds. */
  timeoutMs: 30_000,
});
