import type { RequestTrace } from '@connector-sdk/core';
import { trace as traceApi, type Context, type Span } from '@opentelemetry/api';

/**
 * What the instrumentation keeps for each request and login while it runs, by its trace: the OpenTelemetry
 * context whose span is that request's or login's, and the platform request it belongs to, whose operation and
 * connector name the spans and metrics within it carry. The SDK's traces name what they run in
 * (`LoginTrace.request`, `EndSystemTrace.parent`, `LogLineFields.trace`), so spans nest without an
 * `AsyncLocalStorage`, which on Node 20 makes every promise of the process run a hook.
 *
 * A class, not an object literal, since it lives as long as the request (see core's `Redactor`).
 *
 * @internal
 */
export class Scope {
  /** When the request or login started, by `performance.now()`. */
  readonly started = performance.now();
  readonly #parent: Context;
  readonly #span: Span | undefined;
  #context: Context | undefined;
  readonly request: RequestTrace | undefined;

  /**
   * @param parent - the context the request or login started in
   * @param span - the span the instrumentation made for it, if it made one (else `parent` holds the request's)
   * @param request - the platform request
   */
  constructor(parent: Context, span: Span | undefined, request: RequestTrace | undefined) {
    this.#parent = parent;
    this.#span = span;
    this.request = request;
  }

  /** The context with this scope's span, made when something nests under it (most requests make nothing). */
  get context(): Context {
    return (this.#context ??=
      this.#span === undefined ? this.#parent : traceApi.setSpan(this.#parent, this.#span));
  }

  /** The scope's span: the one made for it, else the span it started in. */
  get span(): Span | undefined {
    return this.#span ?? traceApi.getSpan(this.#parent);
  }

  /** The span the instrumentation made for this scope, which it ends; `undefined` if it made none. */
  get own(): Span | undefined {
    return this.#span;
  }
}

/** The scope of a request or login trace while it runs. @internal */
export type ScopeOf = (trace: object | undefined) => Scope | undefined;
