import type { LoginTrace, RequestTrace } from '@connector-sdk/core';
import {
  SpanKind,
  SpanStatusCode,
  context,
  trace as traceApi,
  type Attributes,
  type Counter,
  type Histogram,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { httpMethod } from './http-method.js';
import { Scope, type OpenSpan, type ScopeOf } from './scope.js';
import { ATTR, OTHER_ERROR, UNVERIFIED } from './semantic-conventions.js';

/** What the request and login observers record to. @internal */
export interface RequestInstruments {
  readonly tracer: Tracer;
  readonly serverDuration: Histogram;
  readonly initializations: Counter;
}

/**
 * The handlers of the `request` and `login` tracing channels: the `start` handlers that start a span (a
 * request's within the OpenTelemetry context it arrived in, a login's under its request), the `asyncEnd`
 * handlers that record the outcome, and the scope of each request and login while it runs.
 *
 * @internal
 */
export function requestObserver(instruments: RequestInstruments) {
  const { tracer, serverDuration, initializations } = instruments;
  const live = new WeakMap<object, Scope>();

  const scopeOf: ScopeOf = (trace) => (trace === undefined ? undefined : live.get(trace));

  /**
   * Runs `record` once `request` has its outcome, with whether it verified what its caller chose: an initialize
   * that succeeded does; a later call's values come from the session the handler verified, so it does too. A
   * request that has already ended is not waited for, and verifies nothing.
   */
  const whenVerified = (request: RequestTrace, record: (verified: boolean) => void): void => {
    if (request.operation !== 'initialize') return record(true);
    const scope = live.get(request);
    if (scope === undefined) return record(false);
    (scope.pending ??= []).push(record);
  };

  /** Makes a request's span, with the time it started, when something first needs it (see `Scope`). */
  const openRequestSpan: OpenSpan = (scope) => {
    const request = scope.request as RequestTrace;
    const method = httpMethod(request.method);
    return tracer.startSpan(
      request.route === undefined ? method : `${method} ${request.route}`,
      {
        kind: SpanKind.SERVER,
        startTime: scope.started,
        attributes: {
          [ATTR.connectorName]: request.connector,
          [ATTR.connectorVersion]: request.connectorVersion,
          [ATTR.httpRequestMethod]: method,
        },
      },
      scope.parent,
    );
  };

  const startRequest = (request: RequestTrace): void => {
    const parent = context.active();
    const active = traceApi.getSpan(parent);
    // An HTTP server instrumentation already made the request's span: add to it rather than nest a second one.
    if (active !== undefined && isServerSpan(active)) {
      active.setAttributes({
        [ATTR.connectorName]: request.connector,
        [ATTR.connectorVersion]: request.connectorVersion,
      });
      live.set(request, new Scope(parent, undefined, request));
      return;
    }
    live.set(request, new Scope(parent, openRequestSpan, request));
  };

  const endRequest = (request: RequestTrace): void => {
    const scope = live.get(request);
    if (scope === undefined) return;
    live.delete(request);
    // Recorded at once. Recording a turn's requests together at its end (`setImmediate`) took 3–4% more of a
    // traced later call's CPU over HTTP (bench/notes/opentelemetry-per-call-cost.md).
    recordRequest(scope, performance.now());
  };

  const recordRequest = (scope: Scope, at: number): void => {
    const request = scope.request as RequestTrace;
    const method = httpMethod(request.method);
    const attributes: Attributes = {
      [ATTR.httpRequestMethod]: method,
      [ATTR.connectorName]: request.connector,
    };
    if (request.route !== undefined) attributes[ATTR.httpRoute] = request.route;
    if (request.operation !== undefined) attributes[ATTR.connectorOperation] = request.operation;
    if (request.status !== undefined) attributes[ATTR.httpResponseStatusCode] = request.status;
    if (request.status !== undefined && request.status >= 400)
      attributes[ATTR.errorType] = request.code ?? OTHER_ERROR;
    serverDuration.record((at - scope.started) / 1000, attributes);

    // The span an HTTP server instrumentation made, or ours (made now if nothing nested under it).
    const span = scope.span;
    if (span !== undefined && span.isRecording()) {
      // The method and connector name were set at the start.
      if (request.route !== undefined) span.setAttribute(ATTR.httpRoute, request.route);
      if (request.operation !== undefined)
        span.setAttribute(ATTR.connectorOperation, request.operation);
      if (request.status !== undefined)
        span.setAttribute(ATTR.httpResponseStatusCode, request.status);
      const errorType = attributes[ATTR.errorType];
      if (errorType !== undefined) span.setAttribute(ATTR.errorType, errorType);
      if (request.systemId !== undefined)
        span.setAttribute(ATTR.connectorSystemId, request.systemId);
      if (request.retryAfterMs !== undefined)
        span.setAttribute(ATTR.connectorRetryAfter, request.retryAfterMs / 1000);
      span.updateName(request.route === undefined ? method : `${method} ${request.route}`);
      // The conventions leave a server span's status unset for 4xx: the caller's mistake, not the server's.
      if (request.status !== undefined && request.status >= 500)
        span.setStatus({ code: SpanStatusCode.ERROR });
    }
    scope.own?.end(at);

    if (request.operation === 'initialize') {
      const verified = succeeded(request);
      for (const record of scope.pending ?? []) record(verified);
      scope.pending = undefined;
      const outcome: Attributes = {
        [ATTR.connectorName]: request.connector,
        [ATTR.httpResponseStatusCode]: request.status,
      };
      // The system id is the caller's choice until the initialize succeeds (see `UNVERIFIED`).
      if (request.systemId !== undefined)
        outcome[ATTR.connectorSystemId] = verified ? request.systemId : UNVERIFIED;
      if (attributes[ATTR.errorType] !== undefined)
        outcome[ATTR.errorType] = attributes[ATTR.errorType];
      initializations.add(1, outcome);
    }
  };

  const startLogin = (login: LoginTrace): void => {
    const outer = scopeOf(login.request);
    const parent = outer?.context ?? context.active();
    const span = tracer.startSpan(
      'connector login',
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [ATTR.connectorName]: login.connector,
          [ATTR.connectorSystemId]: login.systemId,
        },
      },
      parent,
    );
    live.set(login, new Scope(parent, span, outer?.request ?? login.request));
  };

  const endLogin = (login: LoginTrace): void => {
    const span = live.get(login)?.own;
    if (span === undefined) return;
    live.delete(login);
    if (login.code !== undefined) {
      span.setAttribute(ATTR.errorType, login.code);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  };

  return { startRequest, endRequest, startLogin, endLogin, scopeOf, whenVerified };
}

/** Whether a request was answered with a success: for an initialize, a session the SDK signed. */
function succeeded(request: RequestTrace): boolean {
  return request.status !== undefined && request.status < 400;
}

/** Whether a span is a server span; the API does not say, the SDK's spans do (`kind`). */
function isServerSpan(span: Span): boolean {
  return (span as { readonly kind?: unknown }).kind === SpanKind.SERVER;
}
