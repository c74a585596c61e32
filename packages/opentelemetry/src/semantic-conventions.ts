// The attribute and metric names used, from the OpenTelemetry semantic conventions for HTTP
// (https://opentelemetry.io/docs/specs/semconv/http/), copied rather than imported as their own guidance advises
// for instrumentations, so the package depends on `@opentelemetry/api` alone. `connector.*` names are ours.

/** @internal */
export const ATTR = {
  httpRequestMethod: 'http.request.method',
  httpRoute: 'http.route',
  httpResponseStatusCode: 'http.response.status_code',
  httpRequestResendCount: 'http.request.resend_count',
  errorType: 'error.type',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  urlFull: 'url.full',
  urlScheme: 'url.scheme',
  connectorName: 'connector.name',
  connectorVersion: 'connector.version',
  connectorOperation: 'connector.operation',
  connectorSystemId: 'connector.system_id',
  connectorRetryAfter: 'connector.rate_limit.retry_after',
  connectorStoreOperation: 'connector.store.operation',
} as const;

/** @internal */
export const METRIC = {
  serverDuration: 'http.server.request.duration',
  clientDuration: 'http.client.request.duration',
  initializations: 'connector.initializations',
  rateLimitRefusals: 'connector.rate_limit.refusals',
  storeErrors: 'connector.store.errors',
} as const;

/** The semantic conventions' bucket boundaries for HTTP durations, in seconds. @internal */
export const DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

/**
 * What a metric records in place of a value a caller chose and the SDK has not verified (a system id, an end
 * system's host): a metric's attributes make its series, which an SDK bounds (2,000 a metric by default), so
 * invented values would push real tenants into the overflow series. Spans, which make no series, keep the value.
 *
 * @internal
 */
export const UNVERIFIED = 'unverified';

/** `error.type` when a request failed without an SDK code (no such case today), as the conventions say. @internal */
export const OTHER_ERROR = '_OTHER';
