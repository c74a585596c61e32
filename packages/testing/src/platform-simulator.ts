import { randomUUID } from 'node:crypto';
import { ParameterListSchema, type HandlerOptions, type ParameterEntry } from '@connector-sdk/core';
import { systemClock, type Clock } from './clock.js';
import {
  isCredentialKey,
  readWaitMs,
  responseProblems,
  type WaitHeader,
} from './contract-rules.js';
import { SecretSet } from './secret-forms.js';
import { ContractViolationError, SimulatorError } from './simulator-errors.js';
import type { ExchangeEntry, TranscriptEntry } from './transcript.js';
import {
  createTransport,
  type ConnectorTarget,
  type Transport,
  type WireRequest,
  type WireResponse,
} from './transport.js';

/**
 * The configuration a user entered for the end system: the contract's entries as they are, or a record of
 * values (plain strings are not sensitive; write `{ value, sensitive: true }` for those that are).
 */
export type ConfigInput =
  | readonly ParameterEntry[]
  | Readonly<Record<string, string | { readonly value: string; readonly sensitive: boolean }>>;

/** Options of {@link createPlatformSimulator}. */
export interface PlatformSimulatorOptions {
  /** The connector under test: a base URL, a core handler or a connector. */
  readonly target: ConnectorTarget;
  /** The configuration initialize sends. */
  readonly config: ConfigInput;
  /** The configured end system's id. @default 'system-1' */
  readonly systemId?: string;
  /** The sync session's id. @default a fresh `sdk-session-<uuid>` */
  readonly sdkSessionId?: string;
  /** Sends `suppressNotification` `"1"` (true) or `"2"` (false); omitted when not set. */
  readonly suppressNotification?: boolean;
  /** What comes before the version segment. @default '/sdk/api' */
  readonly prefix?: string;
  /** Handler options when the target is a connector. @default {} */
  readonly handlerOptions?: HandlerOptions;
  /** The header a rate-limit 403 announces its wait in. @default 'Retry-After' */
  readonly retryAfterHeader?: string;
  /** The unit of that header's value. @default 'seconds' */
  readonly retryAfterUnit?: 'seconds' | 'milliseconds';
  /** Most rate-limit waits for one call before its 403 is returned. @default 3 */
  readonly maxWaits?: number;
  /** Longest single wait the simulator accepts; a longer one is a {@link SimulatorError}. @default 600_000 */
  readonly maxWaitMs?: number;
  /** What time is and how to wait. Use {@link createManualClock} in tests. @default systemClock */
  readonly clock?: Clock;
  /** Most time one HTTP call may take. @default 30_000 */
  readonly requestTimeoutMs?: number;
  /** Called with each transcript entry as it is recorded (the CLI prints progress with it). */
  readonly onEntry?: (entry: TranscriptEntry) => void;
}

/** A later call, relative to the versioned base. */
export interface CallRequest {
  /** HTTP method. @default 'GET' */
  readonly method?: string;
  /** The path after the base, such as `/issues/42`. */
  readonly path: string;
  /** Query parameters. */
  readonly query?: Readonly<Record<string, string>>;
  /** A JSON body, serialised by the simulator. */
  readonly body?: unknown;
  /** Extra request headers. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A request exactly as given, for probing the contract. */
export interface RawRequest {
  /** HTTP method. */
  readonly method: string;
  /** The path after the base (or from the root, with `fromRoot`). */
  readonly path: string;
  /** Take `path` from the server's root instead of the versioned base. @default false */
  readonly fromRoot?: boolean;
  /** Query parameters. */
  readonly query?: Readonly<Record<string, string>>;
  /** Request headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The body, sent as it is. */
  readonly body?: string;
  /** Send the current session's headers too. @default false */
  readonly withSession?: boolean;
  /** Check a success as an initialize answer. @default 'call' */
  readonly kind?: 'initialize' | 'call';
}

/** A response the simulator received and checked. */
export interface SimulatorResponse {
  /** HTTP status. */
  readonly status: number;
  /** Response headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text. */
  readonly text: string;
  /** The body parsed as JSON; `undefined` when it is not JSON. */
  readonly body: unknown;
  /** The error code of a failed call. */
  readonly code: string | undefined;
}

function toEntries(config: ConfigInput): ParameterEntry[] {
  if (Array.isArray(config)) return [...(config as readonly ParameterEntry[])];
  return Object.entries(config as Exclude<ConfigInput, readonly ParameterEntry[]>).map(
    ([key, value]) =>
      typeof value === 'string'
        ? { key, value, sensitive: false }
        : { key, value: value.value, sensitive: value.sensitive },
  );
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function errorCode(body: unknown): string | undefined {
  const code = (body as { errors?: { code?: unknown } } | undefined)?.errors?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Drives a connector as the platform does: initialize with the configuration, keep the session entries and
 * replay them as headers on every later call, initialize again once on a 401, wait and retry on a 403 that
 * announces a wait, clean up at the end. Every response is checked against the contract, and every
 * exchange is recorded in a transcript with secrets masked.
 */
export class PlatformSimulator {
  /** The sync session's id. */
  readonly sdkSessionId: string;
  /** The configured end system's id. */
  readonly systemId: string;
  readonly #transport: Transport;
  readonly #options: PlatformSimulatorOptions;
  readonly #config: ParameterEntry[];
  readonly #secrets = new SecretSet();
  readonly #transcript: TranscriptEntry[] = [];
  readonly #base: string;
  readonly #clock: Clock;
  readonly #wait: WaitHeader;
  #session: ParameterEntry[] | undefined;

  /**
   * @param transport - how requests reach the connector
   * @param options - the simulator's options
   * @internal use {@link createPlatformSimulator}
   */
  constructor(transport: Transport, options: PlatformSimulatorOptions) {
    this.#transport = transport;
    this.#options = options;
    this.#config = toEntries(options.config);
    this.sdkSessionId = options.sdkSessionId ?? `sdk-session-${randomUUID()}`;
    this.systemId = options.systemId ?? 'system-1';
    this.#base = `${(options.prefix ?? '/sdk/api').replace(/\/+$/, '')}/1.0`;
    this.#clock = options.clock ?? systemClock;
    this.#wait = {
      name: options.retryAfterHeader ?? 'Retry-After',
      unit: options.retryAfterUnit ?? 'seconds',
    };
    this.#secrets.addCompanions(this.#config.filter((e) => !e.sensitive).map((e) => e.value));
    for (const entry of this.#config) if (entry.sensitive) this.#secrets.add(entry.value);
  }

  /** Every exchange and wait so far, secrets masked. */
  get transcript(): readonly TranscriptEntry[] {
    return this.#transcript;
  }

  /** The session entries of the last successful initialize, or `undefined` before one (or after cleanup). */
  get session(): readonly ParameterEntry[] | undefined {
    return this.#session;
  }

  /** The configuration entries initialize sends. */
  get config(): readonly ParameterEntry[] {
    return this.#config;
  }

  /**
   * Calls initialize with the configuration and keeps the answered session.
   *
   * @returns the response; on success the session is kept for later calls
   */
  async initialize(): Promise<SimulatorResponse> {
    return this.#initialize(undefined);
  }

  async #initialize(note: string | undefined): Promise<SimulatorResponse> {
    const entries = [...this.#config];
    const flag = this.#options.suppressNotification;
    if (flag !== undefined)
      entries.push({ key: 'suppressNotification', value: flag ? '1' : '2', sensitive: false });
    const response = await this.#exchange(
      'initialize',
      {
        method: 'POST',
        path: `${this.#base}/initialize/${encodeURIComponent(this.sdkSessionId)}`,
        query: { systemId: this.systemId },
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(entries),
      },
      'initialize',
      note,
    );
    if (response.status === 200) this.#session = ParameterListSchema.parse(response.body);
    return response;
  }

  /**
   * Makes a later call with the session's headers, as the platform does: initializes first when there is no
   * session, initializes again once and retries on a 401, and waits and retries on a 403 with a wait header.
   *
   * @param request - method, path after the base, query, JSON body
   * @returns the final response
   * @throws {@link SimulatorError} when initialize fails; {@link ContractViolationError} on a broken response
   */
  async call(request: CallRequest): Promise<SimulatorResponse> {
    if (this.#session === undefined) await this.#requireSession(undefined);
    const wire = (): WireRequest => ({
      method: request.method ?? 'GET',
      path: `${this.#base}${request.path.startsWith('/') ? '' : '/'}${request.path}`,
      query: request.query ?? {},
      headers: {
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...request.headers,
        ...this.#sessionHeaders(),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
    let response = await this.#exchange('call', wire(), 'call', undefined);
    let reinitialized = false;
    let waits = 0;
    for (;;) {
      if (response.status === 401 && !reinitialized) {
        reinitialized = true;
        await this.#requireSession('the session expired (401): initialize again');
        response = await this.#exchange('call', wire(), 'call', 'retry with the new session');
      } else if (response.status === 403 && waits < (this.#options.maxWaits ?? 3)) {
        const waitMs = readWaitMs(response, this.#wait);
        if (waitMs === undefined) return response;
        await this.#waitFor(waitMs);
        waits++;
        response = await this.#exchange('call', wire(), 'call', `retry after waiting ${waitMs} ms`);
      } else {
        return response;
      }
    }
  }

  /**
   * Ends the session as the platform does: `POST cleanup/{sdkSessionId}` with the session's headers. The
   * session is dropped whatever the answer.
   *
   * @param options - whether to drop the system's cached data too
   * @returns the response
   */
  async cleanup(
    options: { readonly cleanupGlobalCache?: boolean } = {},
  ): Promise<SimulatorResponse> {
    const response = await this.#exchange(
      'cleanup',
      {
        method: 'POST',
        path: `${this.#base}/cleanup/${encodeURIComponent(this.sdkSessionId)}`,
        query: {
          systemId: this.systemId,
          cleanupGlobalCache: String(options.cleanupGlobalCache ?? false),
        },
        headers: this.#sessionHeaders(),
      },
      'call',
      undefined,
    );
    this.#session = undefined;
    return response;
  }

  /**
   * Calls `GET {base}/discover`.
   *
   * @returns the response: `{ connectorName, connectorVersion }` on success
   */
  async discover(): Promise<SimulatorResponse> {
    return this.#exchange(
      'discover',
      { method: 'GET', path: `${this.#base}/discover`, query: {}, headers: {} },
      'call',
      undefined,
    );
  }

  /**
   * Sends a request exactly as given (no re-initialize, no waiting), checks and records it. For probing
   * how the connector answers malformed requests.
   *
   * @param request - the request
   * @returns the response
   */
  async request(request: RawRequest): Promise<SimulatorResponse> {
    return this.#exchange(
      'request',
      {
        method: request.method,
        path: `${request.fromRoot === true ? '' : this.#base}${request.path}`,
        query: request.query ?? {},
        headers: {
          ...request.headers,
          ...(request.withSession === true ? this.#sessionHeaders() : {}),
        },
        ...(request.body === undefined ? {} : { body: request.body }),
      },
      request.kind ?? 'call',
      undefined,
    );
  }

  /**
   * Masks every known secret (and its derived forms) in a text.
   *
   * @param text - any text
   * @returns the text with secrets replaced by `***`
   */
  mask(text: string): string {
    return this.#secrets.mask(text);
  }

  #sessionHeaders(): Record<string, string> {
    return Object.fromEntries((this.#session ?? []).map((entry) => [entry.key, entry.value]));
  }

  async #requireSession(note: string | undefined): Promise<void> {
    const response = await this.#initialize(note);
    if (response.status !== 200) {
      this.#session = undefined;
      throw new SimulatorError(
        `initialize failed with ${response.status} ${response.code ?? ''}: ${this.mask(response.text).slice(0, 300)}`,
        this.#lastExchange(),
      );
    }
  }

  async #waitFor(waitMs: number): Promise<void> {
    const max = this.#options.maxWaitMs ?? 600_000;
    if (waitMs > max) {
      throw new SimulatorError(
        `the connector asked to wait ${waitMs} ms, longer than maxWaitMs (${max} ms)`,
        this.#lastExchange(),
      );
    }
    this.#record({ type: 'wait', waitMs });
    await this.#clock.sleep(waitMs);
  }

  #lastExchange(): ExchangeEntry | undefined {
    return this.#transcript.findLast((entry): entry is ExchangeEntry => entry.type === 'exchange');
  }

  #record(entry: TranscriptEntry): void {
    this.#transcript.push(entry);
    this.#options.onEntry?.(entry);
  }

  async #exchange(
    step: ExchangeEntry['step'],
    request: WireRequest,
    kind: 'initialize' | 'call',
    note: string | undefined,
  ): Promise<SimulatorResponse> {
    const started = this.#clock.now();
    const wire: WireResponse = await this.#transport(request);
    const durationMs = this.#clock.now() - started;
    const problems = responseProblems(wire, kind, this.#wait);
    const body = parse(wire.text);
    // Learn the session's secrets before masking this very answer, even when it breaks the contract.
    const session = kind === 'initialize' ? ParameterListSchema.safeParse(body) : undefined;
    if (session?.success === true) {
      for (const entry of session.data)
        if (entry.sensitive || isCredentialKey(entry.key)) this.#secrets.add(entry.value);
    }
    const search = new URLSearchParams(request.query).toString();
    const entry: ExchangeEntry = {
      type: 'exchange',
      step,
      ...(note === undefined ? {} : { note }),
      request: {
        method: request.method,
        url: this.mask(`${request.path}${search === '' ? '' : `?${search}`}`),
        headers: this.#maskHeaders(request.headers),
        ...(request.body === undefined ? {} : { body: this.mask(request.body) }),
      },
      response: {
        status: wire.status,
        headers: this.#maskHeaders(wire.headers),
        body: this.mask(wire.text),
      },
      durationMs,
      problems,
    };
    this.#record(entry);
    if (problems.length > 0) throw new ContractViolationError(entry);
    return {
      status: wire.status,
      headers: wire.headers,
      text: wire.text,
      body,
      code: errorCode(body),
    };
  }

  #maskHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
    const masked: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers))
      masked[name] = isCredentialKey(name) ? '***' : this.mask(value);
    return masked;
  }
}

/**
 * Creates a simulated platform for a connector: in-process (a connector or a core handler) or over HTTP (a
 * URL).
 *
 * @param options - the target, the configuration and how to behave
 * @returns the simulator
 * @example
 * ```ts
 * const platform = createPlatformSimulator({
 *   target: connector,
 *   config: { url: 'http://127.0.0.1:4000', username: 'alice', password: { value: 'pw', sensitive: true } },
 * });
 * const issue = await platform.call({ method: 'GET', path: '/issues/1' });
 * await platform.cleanup();
 * ```
 */
export function createPlatformSimulator(options: PlatformSimulatorOptions): PlatformSimulator {
  return new PlatformSimulator(
    createTransport(options.target, {
      ...(options.handlerOptions === undefined ? {} : { handlerOptions: options.handlerOptions }),
      ...(options.requestTimeoutMs === undefined
        ? {}
        : { requestTimeoutMs: options.requestTimeoutMs }),
    }),
    options,
  );
}
