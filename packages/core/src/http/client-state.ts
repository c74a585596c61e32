import type { Logger } from '../logging/logger.js';
import type { TraceSource } from '../diagnostics/trace-source.js';
import type { SecretSink } from '../security/redaction/secret-sink.js';
import type { EndSystemDispatcher } from './transport/egress-dispatcher.js';
import type { ErrorMappingOptions } from './errors/map-end-system-error.js';
import type { ProxyTarget } from './transport/proxy-target.js';

// What one client (one platform request) carries to the hooks and the `fetch` of the one ky instance every
// client extends. The hooks are made once, so a client costs a `ky.extend` and this object (measured against
// `ky.create` and hooks made per client; ARCHITECTURE.md, D17); ky hands each hook the call's `options.context`,
// where the client's state sits under a key no JSON, log line or spread of the context shows.

/** The key of a client's state in ky's `options.context`. @internal */
export const CLIENT = Symbol('endSystemClient');

/** A client's state, shared by its calls. @internal */
export interface ClientState {
  readonly log: Logger;
  /** Whether `log` writes anything: a silent logger costs no log line's work, not even the safe URL. */
  readonly logs: boolean;
  readonly secrets: SecretSink | undefined;
  /** What the request is in when an attempt is sent, for the attempt's trace. */
  readonly traces: TraceSource | undefined;
  /** The platform request's signal. */
  readonly signal: AbortSignal | undefined;
  readonly dispatcher: Promise<EndSystemDispatcher>;
  readonly proxy: ProxyTarget | undefined;
  readonly timeoutMs: number;
  readonly deadlineMs: number;
  /** Set by the first call: the deadline starts then, so a client made ahead of its calls loses no time. */
  deadlineAt: number | undefined;
  readonly maxDelayMs: number;
  readonly errors: ErrorMappingOptions;
  readonly sessionExpired: ((body: unknown, response: Response) => boolean) | undefined;
}

/** ky's options as its hooks and `parseJson` see them. */
interface WithContext {
  readonly context?: Readonly<Record<string | symbol, unknown>> | undefined;
}

/** The client state of a call, from its ky options. @internal */
export function clientOf(options: WithContext | undefined): ClientState | undefined {
  return options?.context?.[CLIENT] as ClientState | undefined;
}

/** The ky context of each request about to be sent: ky's `fetch` option gets the request alone. */
const contexts = new WeakMap<Request, WithContext['context']>();
/** The answer each call got, by its ky context, for a `.json()` that finds no JSON to name it. */
const answers = new WeakMap<object, Answer>();

/** The answer of a call and the method that got it (a `Response` does not say). @internal */
export interface Answer {
  readonly response: Response;
  readonly method: string;
}

/** Remembers the ky context of a request the `beforeRequest` hook prepared. @internal */
export function bindRequest(request: Request, options: WithContext): void {
  if (options.context) contexts.set(request, options.context);
}

/** Gives `to`, a copy of `from` with another body, the call's context of `from`. @internal */
export function rebindRequest(from: Request, to: Request): void {
  const context = contexts.get(from);
  if (context) contexts.set(to, context);
}

/** The client state of a request ky is about to send, and its call's context. @internal */
export function requestContext(
  request: Request,
): { readonly client: ClientState; readonly context: object } | undefined {
  const context = contexts.get(request);
  const client = clientOf({ context });
  return client && context ? { client, context } : undefined;
}

/** Remembers the answer of a call. @internal */
export function keepAnswer(context: object, answer: Answer): void {
  answers.set(context, answer);
}

/** The answer of the call whose ky options these are, once it has one. @internal */
export function answerOf(options: WithContext | undefined): Answer | undefined {
  const context = options?.context;
  return context ? answers.get(context) : undefined;
}
