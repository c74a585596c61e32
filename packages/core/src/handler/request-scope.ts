import type { ParameterEntry } from '../contract/schemas.js';
import type { Logger } from '../logging/logger.js';
import { Redactor } from '../security/redactor.js';
import type { Cache } from '../store/cache.js';
import type { ConnectorRequest } from './connector-request.js';
import type { Tenant } from './context-caches.js';

/**
 * The signal of a request that came without one (a binding that cannot tell a disconnect). Shared, so code that
 * waits on a request's signal must not listen to this one: thousands of listeners would pile up on it (issue
 * 20, finding 9).
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
 * rest of the SDK's work on a later call (issue 8).
 *
 * @internal
 */
export class RequestScope {
  operation = 'unknown';
  /**
   * The ids of the session: set once verified (later calls, cleanup) or checked (initialize). Caches, the rate
   * limit and log fields use nothing else (issue 15).
   */
  tenant: Tenant | undefined = undefined;
  readonly redactor = new Redactor();
  readonly #services: ScopeServices;
  readonly #request: ConnectorRequest;
  #log: Logger | undefined;
  #sessionCache: Cache | undefined;
  #systemCache: Cache | undefined;

  constructor(services: ScopeServices, request: ConnectorRequest) {
    this.#services = services;
    this.#request = request;
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
    return this.#request.signal ?? NEVER_ABORTED;
  }
}

/**
 * The services every context offers, as getters on the prototype: nothing is made per request until connector
 * code reads it.
 */
class ScopedContext {
  readonly #scope: RequestScope;

  constructor(scope: RequestScope) {
    this.#scope = scope;
  }

  /** A logger that adds the request's ids and redacts its secrets. */
  get log(): Logger {
    return this.#scope.log;
  }

  /** This end system's cache. */
  get systemCache(): Cache {
    return this.#scope.systemCache;
  }

  /** Fires when the platform disconnects. */
  get signal(): AbortSignal {
    return this.#scope.signal;
  }

  /**
   * Marks a value learned during this call as secret: from now on it is redacted, in every form, from this
   * request's error body and log lines.
   */
  get addSecret(): (value: string) => void {
    // A function of its own, so that `({ addSecret }) => …` works as the other context members do.
    const { redactor } = this.#scope;
    return (value) => {
      if (typeof value === 'string') redactor.add(value);
    };
  }
}

/** A context of a call that carries a session, with the session's cache as well. */
class SessionScopedContext extends ScopedContext {
  readonly #scope: RequestScope;

  constructor(scope: RequestScope) {
    super(scope);
    this.#scope = scope;
  }

  /** This session's cache. */
  get sessionCache(): Cache {
    return this.#scope.sessionCache;
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
export class InitializeContextImpl extends ScopedContext {
  readonly config: Record<string, unknown>;
  readonly entries: readonly ParameterEntry[];
  readonly sdkSessionId: string;
  readonly systemId: string;
  declare readonly suppressNotification?: boolean;
  readonly #signal: AbortSignal | undefined;
  readonly #sessionCache: Cache;

  constructor(scope: RequestScope, fields: InitializeFields) {
    super(scope);
    this.config = fields.config;
    this.entries = fields.entries;
    this.sdkSessionId = fields.sdkSessionId;
    this.systemId = fields.systemId;
    this.#sessionCache = fields.sessionCache;
    // Absent, not undefined, when the platform did not send the option.
    if (fields.suppressNotification !== undefined)
      (this as { suppressNotification?: boolean }).suppressNotification =
        fields.suppressNotification;
    this.#signal = fields.signal;
  }

  override get signal(): AbortSignal {
    return this.#signal ?? super.signal;
  }

  /** The cache of the session being made; its writes are made once initialize has answered. */
  get sessionCache(): Cache {
    return this.#sessionCache;
  }
}

/** @internal the context of `cleanup` */
export class CleanupContextImpl extends SessionScopedContext {
  constructor(
    scope: RequestScope,
    readonly session: Record<string, unknown>,
    readonly sdkSessionId: string,
    readonly systemId: string,
    readonly cleanupGlobalCache: boolean,
  ) {
    super(scope);
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
export class OperationContextImpl extends SessionScopedContext {
  readonly session: Record<string, unknown>;
  readonly params: unknown;
  readonly query: unknown;
  readonly body: unknown;
  readonly sdkSessionId: string;
  readonly systemId: string;
  readonly headers: Readonly<Record<string, string | undefined>>;

  constructor(scope: RequestScope, fields: OperationFields) {
    super(scope);
    this.session = fields.session;
    this.params = fields.params;
    this.query = fields.query;
    this.body = fields.body;
    this.sdkSessionId = fields.sdkSessionId;
    this.systemId = fields.systemId;
    this.headers = fields.headers;
  }
}
