/**
 * Every error code the SDK itself emits, mapped to the HTTP status it is answered with. This table is the
 * single source of truth for statuses: an error's status is always looked up here.
 *
 * An end system's own code never changes the status. Where an error keeps it (the end-system client's default
 * rules, a rule with `endSystemCode: 'keep'`, an error made with `endSystemCode`), the platform sees it in
 * `errors.code` in place of the SDK code listed here; the log line has both.
 *
 * @example
 * ```ts
 * import { ERROR_STATUS } from '@connector-sdk/core';
 *
 * ERROR_STATUS.NOT_FOUND; // 404
 * ERROR_STATUS.RATE_LIMITED; // 403
 * ```
 */
export const ERROR_STATUS = {
  /** The request is not valid HTTP, or its body was cut off. */
  BAD_REQUEST: 400,
  /** The request body is not valid JSON (or not UTF-8). */
  INVALID_JSON: 400,
  /** The initialize body is not a list of `{ key, value, sensitive }` entries, or repeats a key. */
  INVALID_INITIALIZE_BODY: 400,
  /** `suppressNotification` was sent with a value other than `"1"` or `"2"`. */
  INVALID_SUPPRESS_NOTIFICATION: 400,
  /** A configuration field failed the connector's validation. */
  INVALID_CONFIGURATION: 400,
  /**
   * A configuration field's URL names an end system at an address the connector's egress policy refuses
   * (loopback, private, link-local or cloud metadata, unless its operator allows it); answered before connector
   * code runs.
   */
  END_SYSTEM_NOT_ALLOWED: 400,
  /** A required query parameter of the contract (such as `systemId`) is missing or malformed. */
  INVALID_PARAMETER: 400,
  /** The path, query or body of a later operation failed the operation's schema. */
  INVALID_INPUT: 400,
  /**
   * A `multipart/form-data` body (an attachment upload) is malformed: no boundary, a part without a name, a
   * part's headers too large, a second file, too many parts, or a file part that says base64 and is not.
   */
  INVALID_MULTIPART: 400,
  /**
   * The request path has a dot segment (`.`, `..`), a backslash, or a percent-encoded `/`, `\` or `.`: servers
   * and proxies on the way may read such a path differently, so it never reaches a route.
   */
  INVALID_PATH: 400,
  /** A call's path or query names another session or system than the verified session it carries. */
  SESSION_MISMATCH: 400,
  /**
   * The end system refused a change because the record changed meanwhile (its 409, such as CouchDB's revision
   * conflict): still a 400, as the contract has no 409, but a code the platform can tell from a validation error.
   */
  CONFLICT: 400,
  /** Any other validation failure raised by connector code. */
  VALIDATION_FAILED: 400,
  /** A later call carries no session headers. */
  SESSION_MISSING: 401,
  /**
   * The session does not verify (changed after initialize, or signed with a key this connector does not hold),
   * or its values fail the session fields.
   */
  SESSION_INVALID: 401,
  /** The session is older than `maxSessionAgeMs`, or the end system no longer accepts it; initialize again. */
  SESSION_EXPIRED: 401,
  /** The end system rejected the credentials during initialize. */
  AUTHENTICATION_FAILED: 401,
  /** Authenticated, but not allowed to do this. */
  FORBIDDEN: 403,
  /** Initialize came from an address outside the handler's `initializeFrom` networks. */
  SOURCE_NOT_ALLOWED: 403,
  /** A rate limit was reached; a wait header tells the platform how long to wait. */
  RATE_LIMITED: 403,
  /** The requested resource does not exist in the end system. */
  NOT_FOUND: 404,
  /** No operation is defined at this path. */
  ROUTE_NOT_FOUND: 404,
  /** The path names an API version this connector does not serve. */
  UNSUPPORTED_VERSION: 404,
  /** The path exists but not for this method; the `Allow` header lists the methods that do. */
  METHOD_NOT_ALLOWED: 405,
  /** The request did not arrive in time. */
  REQUEST_TIMEOUT: 408,
  /** The request's `Host` is not one of the handler's `allowedHosts` (a DNS-rebinding page, a wrong name). */
  HOST_NOT_ALLOWED: 421,
  /** Initialize was sent without a JSON content type, and the handler requires one. */
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** The request body is larger than the binding's limit. */
  PAYLOAD_TOO_LARGE: 413,
  /** The request headers are larger than the server accepts. */
  HEADERS_TOO_LARGE: 431,
  /** Connector code failed in a way it did not anticipate. */
  INTERNAL_ERROR: 500,
  /** Initialize returned parameters that cannot be replayed safely as headers, or that do not form a session. */
  INVALID_INITIALIZE_RESULT: 500,
  /**
   * An operation answered something other than the shape it declares (with `validateAnswers`, which the
   * testing kit turns on): the message names the operation and the path of the wrong value.
   */
  INVALID_OPERATION_RESULT: 500,
  /** The end system failed (5xx, malformed answer). */
  END_SYSTEM_ERROR: 502,
  /**
   * The end system could not be reached (connection refused, reset, DNS). Also a host name that resolves to an
   * address the egress policy refuses, answered exactly as a name DNS does not know: told apart, the two would
   * let whoever initializes learn which internal names exist.
   */
  END_SYSTEM_UNREACHABLE: 502,
  /**
   * The end system's URL (or a redirect) names an address the end-system client's egress policy refuses: by
   * default anything but a public address, until the connector's operator allows it (the handler's `egress`
   * option or `CONNECTOR_SDK_EGRESS_ALLOW`). The answer never says which kind of address; the log does.
   */
  EGRESS_REFUSED: 502,
  /**
   * Try again later: the shared store (Redis) is unreachable or did not answer in time, or the server is at
   * its `maxConnections` or `maxBodyBytesInFlight` bound.
   */
  SERVICE_UNAVAILABLE: 503,
  /** The end system did not answer in time. */
  END_SYSTEM_TIMEOUT: 504,
} as const satisfies Record<string, number>;

/**
 * A code the SDK emits; see {@link ERROR_STATUS} for the status of each.
 *
 * @example
 * ```ts
 * import { isConnectorError, type ErrorCode } from '@connector-sdk/core';
 *
 * const retried: ReadonlySet<ErrorCode> = new Set([
 *   'END_SYSTEM_TIMEOUT',
 *   'SERVICE_UNAVAILABLE',
 * ]);
 * const retry = (error: unknown) =>
 *   isConnectorError(error) && retried.has(error.code);
 * ```
 */
export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * The codes answered with a given HTTP status.
 *
 * @example
 * ```ts
 * import type { ErrorCodeWithStatus } from '@connector-sdk/core';
 *
 * const code: ErrorCodeWithStatus<401> = 'SESSION_EXPIRED';
 * ```
 */
export type ErrorCodeWithStatus<S extends number> = {
  [C in ErrorCode]: (typeof ERROR_STATUS)[C] extends S ? C : never;
}[ErrorCode];

/**
 * The HTTP status for an SDK error code.
 *
 * @param code - an SDK error code
 * @returns the status from {@link ERROR_STATUS}
 * @example
 * ```ts
 * import { statusForCode } from '@connector-sdk/core';
 * statusForCode('RATE_LIMITED'); // 403
 * ```
 */
export function statusForCode(code: ErrorCode): number {
  return ERROR_STATUS[code];
}
