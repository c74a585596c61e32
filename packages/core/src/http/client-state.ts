import type { Logger } from '../logging/logger.js';
import type { TraceSource } from '../diagnostics/trace-source.js';
import type { SecretSink } from '../security/redaction/secret-sink.js';
import type { EndSystemAuth } from './credentials/end-system-auth.js';
import type { EndSystemDispatcher } from './transport/egress-dispatcher.js';
import type { ErrorMappingOptions } from './errors/map-end-system-error.js';
import type { ProxyTarget } from './transport/proxy-target.js';

// What one client (one platform request) carries to the hooks and the `fetch` of the one ky instance every
// client extends. The hooks are made once, so a client costs a `ky.extend` and this object (measured against
// `ky.create` and hooks made per client; ARCHITECTURE.md, D17); ky hands each hook the call's `options.context`,
// where the client's state sits under a key no JSON, log line or spread of the context shows. What one call of
// the client carries (its answer, its attempt's timer, whether it may be retried…) is in `call-state.ts`.

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
  /** How the client's calls log in, when it was made with `auth`. */
  readonly auth: EndSystemAuth | undefined;
  /** Whether the client's `fetch` shows each answer to `auth` (`asksInFetch` in `auth-answers.ts`). */
  readonly asksAuthInFetch: boolean;
}

/** ky's options as its hooks and `parseJson` see them. */
interface WithContext {
  readonly context?: Readonly<Record<string | symbol, unknown>> | undefined;
}

/** The client state of a call, from its ky options. @internal */
export function clientOf(options: WithContext | undefined): ClientState | undefined {
  return options?.context?.[CLIENT] as ClientState | undefined;
}
