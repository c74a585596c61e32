/**
 * Socket and DNS failures: the end system could not be reached, the connection broke, or what came back was
 * not HTTP (undici's parser errors, `HPE_*`: a wrong port, a TLS or other protocol listening there).
 */
const UNREACHABLE =
  /^(?:ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE|UND_ERR_SOCKET|UND_ERR_CONNECT_TIMEOUT|UND_ERR_CLOSED|HPE_[A-Z_]+)$/;
/** The connection was fine but the answer did not come in time. */
const TIMED_OUT = /^(?:ETIMEDOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT)$/;

/** What kind of network failure an error (or one of its causes) is. */
export interface NetworkFailure {
  /** The system or undici error code, such as `ECONNREFUSED`. */
  readonly code: string;
  /** The answer did not come in time (504), rather than the end system being unreachable (502). */
  readonly timedOut: boolean;
}

/**
 * Recognises a failed `fetch` (Node's undici reports the socket error as the cause of a `TypeError`).
 *
 * @param error - anything thrown
 * @returns the failure, or `undefined` when the error is not a network failure
 * @internal
 */
export function networkFailure(error: unknown): NetworkFailure | undefined {
  let fetchFailed = false;
  for (let current = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    // undici's fetch reports every network error so; the cause usually says which (issue 9).
    if (current instanceof TypeError && current.message === 'fetch failed') fetchFailed = true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE.test(code)) return { code, timedOut: false };
    if (typeof code === 'string' && TIMED_OUT.test(code)) return { code, timedOut: true };
    // Node 24's undici leaves `code` unset on its parser errors; the name still says what happened.
    if (current.name === 'HTTPParserError') return { code: 'HTTPParserError', timedOut: false };
    current = current.cause;
  }
  // A failed fetch without a known cause: an answer fetch refuses to hand over (a 407 from the end system).
  return fetchFailed ? { code: 'fetch failed', timedOut: false } : undefined;
}
