import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import {
  DIAGNOSTICS_CHANNELS,
  type EndSystemTrace,
  type LogLineFields,
  type LoginTrace,
  type RateLimitRefusal,
  type RequestTrace,
  type StoreErrorEvent,
} from '@connector-sdk/core';
import {
  metrics,
  trace as traceApi,
  type MeterProvider,
  type TracerProvider,
} from '@opentelemetry/api';
import { endSystemObserver } from './end-system-observer.js';
import { logCorrelation } from './log-correlation.js';
import { requestObserver } from './request-observer.js';
import { ATTR, DURATION_BUCKETS, METRIC, UNVERIFIED } from './semantic-conventions.js';

/** Options of {@link instrumentConnectorSdk}. */
export interface ConnectorSdkInstrumentationOptions {
  /**
   * Where spans go.
   *
   * @default the global tracer provider (`trace.getTracerProvider()`, which the Node SDK's `start()` sets)
   */
  readonly tracerProvider?: TracerProvider;
  /**
   * Where metrics go. The global one is read when `instrumentConnectorSdk` is called: call it after the Node
   * SDK's `start()`.
   *
   * @default the global meter provider (`metrics.getMeterProvider()`)
   */
  readonly meterProvider?: MeterProvider;
  /**
   * Records the query of end-system URLs in `url.full`, with the values of parameters named like credentials
   * and every secret the request knows replaced, as the SDK's log lines show it. A query may still carry a
   * value nobody told the SDK is secret: leave it off unless your end system's queries are known to be safe.
   *
   * @default false (URLs are recorded without their query)
   */
  readonly recordQueryValues?: boolean;
}

/** A running instrumentation, from {@link instrumentConnectorSdk}. */
export interface ConnectorSdkInstrumentation {
  /** Stops recording: unsubscribes from every channel, so the SDK's requests cost what they did before. */
  disable(): void;
}

type Handlers<C extends object> = Parameters<
  ReturnType<typeof tracingChannel<unknown, C>>['subscribe']
>[0];

/**
 * Turns what the SDK publishes on its diagnostics channels into OpenTelemetry spans and metrics by the HTTP
 * semantic conventions: a server span per platform request (or attributes on the span an HTTP server
 * instrumentation made for it), a span per login, a client span per end-system attempt, the
 * `http.server.request.duration` and `http.client.request.duration` histograms, counters of initialize
 * outcomes, rate-limit refusals and store errors, and the trace and span ids in the SDK's log lines. No header
 * value, session value, query value (unless `recordQueryValues`) or secret the SDK knows is recorded.
 *
 * @param options - the tracer and meter providers, and whether to record query values
 * @returns the running instrumentation, to `disable()`
 * @example
 * ```ts
 * import { NodeSDK } from '@opentelemetry/sdk-node';
 * import { instrumentConnectorSdk } from '@connector-sdk/opentelemetry';
 *
 * const sdk = new NodeSDK(); // exporters from the OTEL_* environment variables
 * sdk.start();
 * const instrumentation = instrumentConnectorSdk();
 * process.once('SIGTERM', () => {
 *   instrumentation.disable();
 *   void sdk.shutdown();
 * });
 * ```
 */
export function instrumentConnectorSdk(
  options: ConnectorSdkInstrumentationOptions = {},
): ConnectorSdkInstrumentation {
  const tracer = (options.tracerProvider ?? traceApi.getTracerProvider()).getTracer(
    '@connector-sdk/opentelemetry',
  );
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(
    '@connector-sdk/opentelemetry',
  );
  const duration = (name: string, description: string) =>
    meter.createHistogram(name, {
      description,
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
  const requests = requestObserver({
    tracer,
    serverDuration: duration(METRIC.serverDuration, 'Duration of platform requests.'),
    initializations: meter.createCounter(METRIC.initializations, {
      description: 'Initialize requests answered, by outcome.',
      unit: '{initialization}',
    }),
  });
  const endSystem = endSystemObserver({
    tracer,
    scopeOf: requests.scopeOf,
    clientDuration: duration(METRIC.clientDuration, 'Duration of end-system requests.'),
    recordQueryValues: options.recordQueryValues ?? false,
    whenVerified: requests.whenVerified,
  });
  const refusals = meter.createCounter(METRIC.rateLimitRefusals, {
    description: 'Calls the connector-side rate limit refused.',
    unit: '{refusal}',
  });
  const storeErrors = meter.createCounter(METRIC.storeErrors, {
    description: 'Failed operations of the handler’s store.',
    unit: '{error}',
  });

  const request = tracingChannel<unknown, RequestTrace>(DIAGNOSTICS_CHANNELS.request);
  const login = tracingChannel<unknown, LoginTrace>(DIAGNOSTICS_CHANNELS.login);
  const attempt = tracingChannel<unknown, EndSystemTrace>(DIAGNOSTICS_CHANNELS.endSystemRequest);
  const handlers = {
    request: traced<RequestTrace>(requests.startRequest, requests.endRequest),
    login: traced<LoginTrace>(requests.startLogin, requests.endLogin),
    attempt: traced<EndSystemTrace>(endSystem.start, endSystem.end),
  };
  const onRefusal = (message: unknown): void => {
    const refusal = message as RateLimitRefusal;
    refusals.add(1, {
      [ATTR.connectorOperation]: refusal.operation,
      // A later call's system id is its verified session's; an initialize's, refused, is its caller's choice.
      [ATTR.connectorSystemId]: refusal.operation === 'initialize' ? UNVERIFIED : refusal.systemId,
      [ATTR.connectorName]: refusal.connector,
    });
  };
  const onStoreError = (message: unknown): void => {
    const error = message as StoreErrorEvent;
    storeErrors.add(1, {
      [ATTR.connectorStoreOperation]: error.operation,
      [ATTR.errorType]: error.code,
    });
  };
  const onLogLine = (message: unknown): void =>
    logCorrelation(requests.scopeOf, message as LogLineFields);

  // Spans start at `start`, which runs in the context the work was started in; what runs within a request or
  // login finds its span through the trace it names, not through async context (see `Scope`).
  request.subscribe(handlers.request);
  login.subscribe(handlers.login);
  attempt.subscribe(handlers.attempt);
  subscribe(DIAGNOSTICS_CHANNELS.rateLimited, onRefusal);
  subscribe(DIAGNOSTICS_CHANNELS.storeError, onStoreError);
  subscribe(DIAGNOSTICS_CHANNELS.logLine, onLogLine);

  let enabled = true;
  return {
    disable() {
      if (!enabled) return;
      enabled = false;
      request.unsubscribe(handlers.request);
      login.unsubscribe(handlers.login);
      attempt.unsubscribe(handlers.attempt);
      unsubscribe(DIAGNOSTICS_CHANNELS.rateLimited, onRefusal);
      unsubscribe(DIAGNOSTICS_CHANNELS.storeError, onStoreError);
      unsubscribe(DIAGNOSTICS_CHANNELS.logLine, onLogLine);
    },
  };
}

/**
 * Tracing channel handlers that start a span at `start` and record at `asyncEnd`, the one event after which a
 * context changes no more. Only those two are subscribed: publishing on a channel nobody subscribes to costs
 * nothing, so `end`, `asyncStart` and `error` are left unsubscribed (Node subscribes the handlers given).
 */
function traced<C extends object>(
  start: (context: C) => void,
  asyncEnd: (context: C) => void,
): Handlers<C> {
  return { start, asyncEnd } as Partial<Handlers<C>> as Handlers<C>;
}
