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
  /**
   * What waits for an initialize's outcome before it is recorded (its end-system calls' durations): called
   * with whether the initialize succeeded, which verifies the values its caller chose.
   */
  pending: ((verified: boolean) => void)[] | undefined = undefined;
  /** The context the request or login started in. */
  readonly parent: Context;
  readonly request: RequestTrace | undefined;
  #span: Span | undefined;
  #open: OpenSpan | undefined;
  #context: Context | undefined;

  /**
   * @param parent - the context the request or login started in
   * @param span - the span the instrumentation made for it, or what makes it when something first needs it;
   *   `undefined` if it makes none (then `parent` holds the request's)
   * @param request - the platform request
   */
  constructor(
    parent: Context,
    span: Span | OpenSpan | undefined,
    request: RequestTrace | undefined,
  ) {
    this.parent = parent;
    if (typeof span === 'function') this.#open = span;
    else this.#span = span;
    this.request = request;
  }

  /** The span made for this scope, made now if it is made lazily; `undefined` if the scope makes none. */
  #opened(): Span | undefined {
    const open = this.#open;
    if (open !== undefined) {
      this.#open = undefined;
      this.#span = open(this);
    }
    return this.#span;
  }

  /** The context with this scope's span, made when something nests under it (most requests make nothing). */
  get context(): Context {
    if (this.#context === undefined) {
      const own = this.#opened();
      this.#context = own === undefined ? this.parent : traceApi.setSpan(this.parent, own);
    }
    return this.#context;
  }

  /** The scope's span: the one made for it (made now if it is made lazily), else the span it started in. */
  get span(): Span | undefined {
    return this.#opened() ?? traceApi.getSpan(this.parent);
  }

  /** The span made for this scope so far, which the instrumentation ends; does not make a lazy one. */
  get own(): Span | undefined {
    return this.#span;
  }
}

/** Makes a scope's own span when something first needs it: a child, or a log line's ids. @internal */
export type OpenSpan = (scope: Scope) => Span;

/** The scope of a request or login trace while it runs. @internal */
export type ScopeOf = (trace: object | undefined) => Scope | undefined;
