import type { ParameterEntry } from '../contract/schemas.js';
import type { LoginTrace, RequestTrace } from '../diagnostics/channels.js';
import type { Logger } from '../logging/logger.js';
import { Redactor } from '../security/redaction/redactor.js';
import type { Cache } from '../store/cache.js';
import { DeferredCache } from '../store/deferred-cache.js';
import type { ConnectorRequest } from '../contract/connector-request.js';
import type { Tenant } from './context-caches.js';
import type { TenantShare } from './later-call/tenant-shares.js';

/**
 * The signal of a request that came without one (a binding that cannot tell a disconnect). Shared, so code that
 * waits on a request's signal must not listen to this one: thousands of listeners would pile up on it.
 */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;

/** Where a request's services come from; made once per handler. */
export interface ScopeServices {
  /** The logger connector code gets for this request (it redacts the request's secrets). */
  logger(scope: RequestScope): Logger;
  sessionCache(tenant: Tenant | undefined): Cache;
  systemCache(tenant: Tenant | undefined): Cache;
}

/**
 * One request's state: its ids and secrets, and the services connector code may use, each made on first use.
 * Most calls use none of them, and making them (a logger, two caches, an `AbortSignal`) cost more than the
 * rest of the SDK's work on a later call.
 *
 * @internal
 */
export class RequestScope {
  operation = 'unknown';
  /**
   * The ids of the session: set once verified (later calls, cleanup) or checked (initialize). Caches, the rate
   * limit and log fields use nothing else (ARCHITECTURE.md, D2).
   */
  tenant: Tenant | undefined = undefined;
  /** The tenant whose share of the calls in flight this request holds, given back once it is answered. */
  share: TenantShare | undefined = undefined;
  /** The request's trace, when the `request` channel has a subscriber (ARCHITECTURE.md, D22). */
  requestTrace: RequestTrace | undefined = undefined;
  /** The innermost trace the request's work runs in: its login while `initialize` runs, else its trace. */
  trace: RequestTrace | LoginTrace | undefined = undefined;
  readonly redactor = new Redactor();
  /** The request, as the binding gave it. */
  readonly request: ConnectorRequest;
  readonly #services: ScopeServices;
  #log: Logger | undefined;
  #sessionCache: Cache | undefined;
  #systemCache: Cache | undefined;

  constructor(services: ScopeServices, request: ConnectorRequest) {
    this.#services = services;
    this.request = request;
  }

  get log(): Logger {
    return (this.#log ??= this.#services.logger(this));
  }

  get sessionCache(): Cache {
    return (this.#sessionCache ??= this.#services.sessionCache(this.tenant));
  }

  get systemCache(): Cache {
    return (this.#systemCache ??= this.#services.systemCache(this.tenant));
  }

  /** The request's signal; read only when connector code asks, since a binding may make it on demand. */
  get signal(): AbortSignal {
    return this.request.signal ?? NEVER_ABORTED;
  }
}

/**
 * What every context offers besides its own fields: the request's logger, signal, `addSecret` and caches, each
 * an **own** property (ARCHITECTURE.md, D13). Authors destructure and spread contexts (`({ params, ...call }) =>
 * tracker(call)`, as the docs teach), and a rest copy keeps only own enumerable properties: getters on a
 * prototype were silently lost, with them the logging, the cancellation and the operator's egress policy of every
 * end-system call. The logger and the caches are cheap stand-ins made here; only the signal stays an accessor (an
 * own one, shared by every context), since a binding makes it on demand and most calls never read it.
 */
class ContextServices {
  readonly #scope: RequestScope;
  readonly log: Logger;
  readonly addSecret: (value: string) => void;
  readonly systemCache: Cache;
  declare readonly signal: AbortSignal;

  static readonly #signal: PropertyDescriptor = {
    get(this: ContextServices) {
      return this.#scope.signal;
    },
    enumerable: true,
    configurable: true,
  };

  constructor(scope: RequestScope, signal: AbortSignal | undefined) {
    this.#scope = scope;
    this.log = scope.log;
    const { redactor } = scope;
    // A function of its own, so that `({ addSecret }) => …` works as the other context members do.
    this.addSecret = (value) => {
      if (typeof value === 'string') redactor.add(value);
    };
    this.systemCache = new DeferredCache(scope, 'systemCache');
    if (signal === undefined) Object.defineProperty(this, 'signal', ContextServices.#signal);
    else (this as { signal: AbortSignal }).signal = signal;
  }
}

/** What initialize's context holds besides the services. */
export interface InitializeFields {
  readonly config: Record<string, unknown>;
  readonly entries: readonly ParameterEntry[];
  readonly sdkSessionId: string;
  readonly systemId: string;
  readonly suppressNotification: boolean | undefined;
  /** A signal other than the request's, for a login shared by several callers. */
  readonly signal?: AbortSignal | undefined;
  /** The cache of the session being made; its writes are made once initialize is answered. */
  readonly sessionCache: Cache;
}

/**
 * The context of `initialize`. Its session cache holds its writes until the session is answered; a login
 * shared by several sessions (`singleFlightInitialize`) has its writes made in each of theirs.
 *
 * @internal
 */
export class InitializeContextImpl extends ContextServices {
  readonly config: Record<string, unknown>;
  readonly entries: readonly ParameterEntry[];
  readonly sdkSessionId: string;
  readonly systemId: string;
  declare readonly suppressNotification?: boolean;
  /** The cache of the session being made; its writes are made once initialize has answered. */
  readonly sessionCache: Cache;

  constructor(scope: RequestScope, fields: InitializeFields) {
    super(scope, fields.signal);
    this.config = fields.config;
    this.entries = fields.entries;
    this.sdkSessionId = fields.sdkSessionId;
    this.systemId = fields.systemId;
    this.sessionCache = fields.sessionCache;
    // Absent, not undefined, when the platform did not send the option.
    if (fields.suppressNotification !== undefined)
      (this as { suppressNotification?: boolean }).suppressNotification =
        fields.suppressNotification;
  }
}

/** What cleanup's context holds besides the services. */
export interface CleanupFields {
  readonly session: Record<string, unknown>;
  readonly sdkSessionId: string;
  readonly systemId: string;
  readonly cleanupGlobalCache: boolean;
}

/** @internal the context of `cleanup` */
export class CleanupContextImpl extends ContextServices {
  readonly session: Record<string, unknown>;
  readonly sdkSessionId: string;
  readonly systemId: string;
  readonly cleanupGlobalCache: boolean;
  readonly sessionCache: Cache;

  constructor(scope: RequestScope, fields: CleanupFields) {
    super(scope, undefined);
    this.session = fields.session;
    this.sdkSessionId = fields.sdkSessionId;
    this.systemId = fields.systemId;
    this.cleanupGlobalCache = fields.cleanupGlobalCache;
    this.sessionCache = new DeferredCache(scope, 'sessionCache');
  }
}

/** What a later operation's context holds besides the services. */
export interface OperationFields {
  readonly session: Record<string, unknown>;
  readonly params: unknown;
  readonly query: unknown;
  readonly body: unknown;
  readonly sdkSessionId: string;
  readonly systemId: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
}

/** @internal the context of a later operation */
export class OperationContextImpl extends ContextServices {
  readonly session: Record<string, unknown>;
  readonly params: unknown;
  readonly query: unknown;
  readonly body: unknown;
  readonly sdkSessionId: string;
  readonly systemId: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly sessionCache: Cache;

  constructor(scope: RequestScope, fields: OperationFields) {
    super(scope, undefined);
    this.session = fields.session;
    this.params = fields.params;
    this.query = fields.query;
    this.body = fields.body;
    this.sdkSessionId = fields.sdkSessionId;
    this.systemId = fields.systemId;
    this.headers = fields.headers;
    this.sessionCache = new DeferredCache(scope, 'sessionCache');
  }
}

/** What a session check's context holds besides the services. */
export interface SessionCheckFields {
  readonly session: Record<string, unknown>;
  readonly sdkSessionId: string;
  readonly systemId: string;
  readonly operation: string;
}

/**
 * @internal the context of `checkSession.check`: no headers, query or body, since a memo keyed by the verified
 * session must not hold an answer that depended on anything else
 */
export class SessionCheckContextImpl extends ContextServices {
  readonly session: Record<string, unknown>;
  readonly sdkSessionId: string;
  readonly systemId: string;
  readonly operation: string;
  readonly sessionCache: Cache;

  constructor(scope: RequestScope, fields: SessionCheckFields) {
    super(scope, undefined);
    this.session = fields.session;
    this.sdkSessionId = fields.sdkSessionId;
    this.systemId = fields.systemId;
    this.operation = fields.operation;
    this.sessionCache = new DeferredCache(scope, 'sessionCache');
  }
}
