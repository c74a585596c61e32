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
  /**
   * The innermost cause in one short line: `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1`,
   * `ERR_SSL_WRONG_VERSION_NUMBER: wrong version number`, `bad port`.
   */
  readonly cause: string;
}

/** OpenSSL's messages carry a hex prefix and a source location around the part that says what happened. */
const OPENSSL = /^[0-9A-F]+:error:[0-9A-F]+:[^:]*:[^:]*:([^:]+):/;

/** One short line for the innermost cause of an error: its code (when it has one) and its message. */
function describe(error: Error): string {
  const code = (error as { code?: unknown }).code;
  const firstLine = (error.message.split('\n')[0] ?? '').trim();
  const message = (OPENSSL.exec(firstLine)?.[1] ?? firstLine).slice(0, 160);
  if (typeof code !== 'string') return message || error.name;
  return message && message !== code ? `${code}: ${message}` : code;
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
  let innermost: Error | undefined;
  let found: { code: string; timedOut: boolean } | undefined;
  for (let current = error, depth = 0; current instanceof Error && depth < 6; depth++) {
    innermost = current;
    // undici's fetch reports every network error so; the cause usually says which.
    if (current instanceof TypeError && current.message === 'fetch failed') fetchFailed = true;
    const code = (current as { code?: unknown }).code;
    if (found === undefined && typeof code === 'string') {
      if (UNREACHABLE.test(code)) found = { code, timedOut: false };
      else if (TIMED_OUT.test(code)) found = { code, timedOut: true };
    }
    // Node 24's undici leaves `code` unset on its parser errors; the name still says what happened.
    if (found === undefined && current.name === 'HTTPParserError')
      found = { code: 'HTTPParserError', timedOut: false };
    current = current.cause;
  }
  if (innermost === undefined) return undefined;
  const cause = describe(innermost);
  if (found) return { ...found, cause };
  if (!fetchFailed) return undefined;
  // A failed fetch for another reason: TLS (ERR_SSL_*, certificates), a port fetch refuses ("bad port"), an
  // answer fetch refuses to hand over (a 407). The innermost cause names it.
  const code = (innermost as { code?: unknown }).code;
  return {
    code: typeof code === 'string' ? code : innermost === error ? 'fetch failed' : cause,
    timedOut: false,
    cause,
  };
}
