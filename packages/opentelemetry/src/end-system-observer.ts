import type { EndSystemTrace, RequestTrace } from '@connector-sdk/core';
import {
  SpanKind,
  SpanStatusCode,
  context,
  type Attributes,
  type Histogram,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { httpMethod } from './http-method.js';
import type { ScopeOf } from './scope.js';
import { ATTR, UNVERIFIED } from './semantic-conventions.js';

/** What the end-system observer records to. @internal */
export interface EndSystemInstruments {
  readonly tracer: Tracer;
  /** The scope of the request or login an attempt names as its parent. */
  readonly scopeOf: ScopeOf;
  readonly clientDuration: Histogram;
  readonly recordQueryValues: boolean;
  /** Runs a recording once the request has verified what its caller chose (see the request observer's). */
  readonly whenVerified: (request: RequestTrace, record: (verified: boolean) => void) => void;
}

interface Live {
  readonly span: Span;
  readonly started: number;
  readonly attributes: Attributes;
  readonly request: RequestTrace | undefined;
}

/**
 * The handlers of the `endSystemRequest` tracing channel: one client span per attempt (a retry is a span of
 * its own with `http.request.resend_count`, as the conventions say), a child of the request or login it was
 * made in.
 *
 * @internal
 */
export function endSystemObserver(instruments: EndSystemInstruments) {
  const { tracer, scopeOf, clientDuration, recordQueryValues, whenVerified } = instruments;
  const live = new WeakMap<object, Live>();

  const start = (attempt: EndSystemTrace): void => {
    const outer = scopeOf(attempt.parent);
    const parent = outer?.context ?? context.active();
    const method = httpMethod(attempt.method);
    const attributes: Attributes = { [ATTR.httpRequestMethod]: method };
    const server = serverOf(attempt.url);
    if (server !== undefined) {
      attributes[ATTR.serverAddress] = server.address;
      attributes[ATTR.serverPort] = server.port;
    }
    const request = outer?.request;
    if (request !== undefined) {
      attributes[ATTR.connectorName] = request.connector;
      if (request.operation !== undefined) attributes[ATTR.connectorOperation] = request.operation;
    }
    const spanAttributes: Attributes = {
      ...attributes,
      [ATTR.urlFull]:
        recordQueryValues && attempt.query !== undefined
          ? `${attempt.url}?${attempt.query}`
          : attempt.url,
    };
    if (attempt.attempt > 0) spanAttributes[ATTR.httpRequestResendCount] = attempt.attempt;
    const span = tracer.startSpan(
      method,
      { kind: SpanKind.CLIENT, attributes: spanAttributes },
      parent,
    );
    live.set(attempt, { span, started: performance.now(), attributes, request });
  };

  const end = (attempt: EndSystemTrace): void => {
    const state = live.get(attempt);
    if (state === undefined) return;
    live.delete(attempt);
    const { span, attributes } = state;
    if (attempt.status !== undefined) attributes[ATTR.httpResponseStatusCode] = attempt.status;
    const errorType =
      attempt.code ??
      (attempt.status !== undefined && attempt.status >= 400 ? String(attempt.status) : undefined);
    if (errorType !== undefined) attributes[ATTR.errorType] = errorType;
    const seconds = (performance.now() - state.started) / 1000;
    // The host and port of an initialize's calls are the caller's choice until it succeeds (see `UNVERIFIED`);
    // a client made without a request's log is the connector's own.
    if (state.request === undefined) clientDuration.record(seconds, attributes);
    else
      whenVerified(state.request, (verified) =>
        clientDuration.record(seconds, verified ? attributes : unverified(attributes)),
      );
    if (attempt.status !== undefined)
      span.setAttribute(ATTR.httpResponseStatusCode, attempt.status);
    if (errorType !== undefined) {
      span.setAttribute(ATTR.errorType, errorType);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  };

  return { start, end };
}

/** A call's metric attributes without the host and port a caller chose. */
function unverified(attributes: Attributes): Attributes {
  const shown: Attributes = {};
  for (const [name, value] of Object.entries(attributes))
    if (name !== ATTR.serverPort) shown[name] = value;
  shown[ATTR.serverAddress] = UNVERIFIED;
  return shown;
}

/** The host and port of an end-system URL (already without user info or query). */
function serverOf(url: string): { address: string; port: number } | undefined {
  try {
    const parsed = new URL(url);
    const port =
      parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
    return { address: parsed.hostname.replace(/^\[|\]$/g, ''), port };
  } catch {
    return undefined;
  }
}
