import { randomUUID } from 'node:crypto';
import {
  ParameterListSchema,
  type ParameterEntry,
  type PlatformOperationName,
} from '@connector-sdk/core';
import { systemClock, type Clock } from './clock.js';
import { readWaitMs, responseProblems, type WaitHeader } from './contract-rules.js';
import { SessionMasker } from './session-masker.js';
import type {
  CallRequest,
  ConfigInput,
  PlatformSimulatorOptions,
  RawRequest,
  SimulatorResponse,
} from './simulator-types.js';
import { ContractViolationError, SimulatorError } from './simulator-errors.js';
import {
  callPlatform,
  readAllPages,
  type PagedPlatformOperation,
  type PlatformCallInput,
  type SimulatorAnswer,
} from './platform-calls.js';
import type { ExchangeEntry, TranscriptEntry } from './transcript.js';
import {
  createTransport,
  type Transport,
  type WireRequest,
  type WireResponse,
} from './transport.js';

export type {
  CallRequest,
  ConfigInput,
  PlatformSimulatorOptions,
  RawRequest,
  SimulatorResponse,
} from './simulator-types.js';

/** An exchange's step in the transcript, and whether its answer is checked as initialize's or a call's. */
interface ExchangeStep {
  readonly step: ExchangeEntry['step'];
  readonly kind: 'initialize' | 'call';
}

const INITIALIZE: ExchangeStep = { step: 'initialize', kind: 'initialize' };
const CALL: ExchangeStep = { step: 'call', kind: 'call' };
const CLEANUP: ExchangeStep = { step: 'cleanup', kind: 'call' };
const DISCOVER: ExchangeStep = { step: 'discover', kind: 'call' };

/**
 * A configuration as the contract's entries: a record's plain strings are not sensitive.
 *
 * @internal
 */
export function toEntries(config: ConfigInput): ParameterEntry[] {
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
 * A call's body as it goes on the wire: a `FormData` as `multipart/form-data` (an attachment upload, encoded as
 * fetch encodes it), anything else as JSON.
 */
async function wireBody(
  body: unknown,
): Promise<{ readonly bytes: string | Uint8Array; readonly contentType: string }> {
  if (!(body instanceof FormData))
    return { bytes: JSON.stringify(body) ?? '', contentType: 'application/json' };
  const encoded = new Response(body);
  return {
    bytes: new Uint8Array(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? 'multipart/form-data',
  };
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
  readonly #masker = new SessionMasker();
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
    this.#masker.learn(this.#config);
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
    const response = await this.#sendWaiting(
      INITIALIZE,
      () => ({
        method: 'POST',
        path: `${this.#base}/initialize/${encodeURIComponent(this.sdkSessionId)}`,
        query: { systemId: this.systemId },
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(entries),
      }),
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
    const wire = (): WireRequest => {
      const session = this.#sessionHeaders();
      const names = new Set(Object.keys(session).map((name) => name.toLowerCase()));
      // The session wins over a caller's header of the same name in any case, as one header, not two.
      const extra = Object.entries(request.headers ?? {}).filter(
        ([name]) => !names.has(name.toLowerCase()),
      );
      return {
        method: request.method ?? 'GET',
        path: this.#path(request.path),
        query: request.query ?? {},
        headers: {
          ...(request.body === undefined ? {} : { 'content-type': body.contentType }),
          ...Object.fromEntries(extra),
          ...session,
        },
        ...(request.body === undefined ? {} : { body: body.bytes }),
      };
    };
    const body = await wireBody(request.body);
    let response = await this.#sendWaiting(CALL, wire, undefined);
    if (response.status === 401) {
      await this.#requireSession('the session expired (401): initialize again');
      response = await this.#sendWaiting(CALL, wire, 'retry with the new session');
    }
    return response;
  }

  /**
   * Calls one of the platform's documented operations as the platform does (a later call with the session,
   * so with its 401 and rate-limit handling), and checks a 200 answer against the catalog's shape.
   *
   * @param name - the operation, such as `'getEntity'`
   * @param input - path parameters, the query as text, a body; `path` when the connector moved it
   * @returns the response, with `answer` typed as the operation's answer; for a file's content
   * (`attachmentContent`), `answer` and `body` are the file's bytes and `text` the base64 the connector sent
   * @throws {@link SimulatorError} naming the wrong values when the answer has another shape
   * @example
   * ```ts
   * const { answer } = await platform.callOperation('getEntity', {
   *   params: { entityId: 'A-1' },
   *   query: { entityTypeId: 'issue', projectId: 'DEMO' },
   * });
   * ```
   */
  callOperation<K extends PlatformOperationName>(
    name: K,
    input: PlatformCallInput<K>,
  ): Promise<SimulatorResponse & { readonly answer: SimulatorAnswer<K> }> {
    return callPlatform((request) => this.call(request), name, input);
  }

  /**
   * Reads a whole list as the platform does: windows of `pageSize` from `startIndex` 0, passing back each
   * `nextPageLink`, until a window comes back short. Fails when a window holds more than it asked for.
   *
   * @param name - a paged operation: `projects`, `searchEntities`, `getComments`, or a history
   * @param input - path parameters, the rest of the query, a body
   * @param options - the window size
   * @returns every item, in order
   */
  readAll<K extends PagedPlatformOperation>(
    name: K,
    input: PlatformCallInput<K>,
    options: { readonly pageSize?: number } = {},
  ): Promise<unknown[]> {
    return readAllPages((request) => this.call(request), name, {
      input,
      pageSize: options.pageSize ?? 50,
    });
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
    const response = await this.#sendWaiting(
      CLEANUP,
      () => ({
        method: 'POST',
        path: `${this.#base}/cleanup/${encodeURIComponent(this.sdkSessionId)}`,
        query: {
          systemId: this.systemId,
          cleanupGlobalCache: String(options.cleanupGlobalCache ?? false),
        },
        headers: this.#sessionHeaders(),
      }),
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
    return this.#sendWaiting(
      DISCOVER,
      () => ({ method: 'GET', path: `${this.#base}/discover`, query: {}, headers: {} }),
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
      { step: 'request', kind: request.kind ?? 'call' },
      {
        method: request.method,
        path: request.fromRoot === true ? request.path : this.#path(request.path),
        query: request.query ?? {},
        headers: {
          ...request.headers,
          ...(request.withSession === true ? this.#sessionHeaders() : {}),
        },
        ...(request.body === undefined ? {} : { body: request.body }),
      },
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
    return this.#masker.text(text);
  }

  #path(path: string): string {
    return `${this.#base}${path.startsWith('/') ? '' : '/'}${path}`;
  }

  /** Sends a request; on a 403 that announces a wait, waits and sends it again, as the platform does. */
  async #sendWaiting(
    what: ExchangeStep,
    wire: () => WireRequest,
    note: string | undefined,
  ): Promise<SimulatorResponse> {
    let response = await this.#exchange(what, wire(), note);
    for (let waits = 0; response.status === 403 && waits < (this.#options.maxWaits ?? 3); waits++) {
      const waitMs = readWaitMs(response, this.#wait);
      if (waitMs === undefined) break;
      await this.#waitFor(waitMs);
      response = await this.#exchange(what, wire(), `retry after waiting ${waitMs} ms`);
    }
    return response;
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
    { step, kind }: ExchangeStep,
    request: WireRequest,
    note: string | undefined,
  ): Promise<SimulatorResponse> {
    const started = this.#clock.now();
    const search = new URLSearchParams(request.query).toString();
    const url = this.mask(`${request.path}${search === '' ? '' : `?${search}`}`);
    let wire: WireResponse;
    try {
      wire = await this.#transport(request);
    } catch (error) {
      const reason =
        (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new SimulatorError(
        `could not reach the connector for ${request.method} ${url}: ${this.mask(String(reason))}`,
        undefined,
        { cause: error },
      );
    }
    const durationMs = this.#clock.now() - started;
    const body = parse(wire.text);
    // Learn the session's secrets before masking this very answer, even when it breaks the contract.
    if (kind === 'initialize' && wire.status === 200) this.#masker.learn(body);
    // A later call may answer 204 or text, whether the simulator made it (`call`) or sent it as given.
    const answered =
      kind === 'initialize'
        ? 'initialize'
        : step === 'call' || step === 'request'
          ? 'operation'
          : 'other';
    const problems = responseProblems(wire, answered, this.#wait).map((problem) =>
      this.mask(problem),
    );
    const entry: ExchangeEntry = {
      type: 'exchange',
      step,
      ...(note === undefined ? {} : { note }),
      request: {
        method: request.method,
        url,
        headers: this.#masker.headers(request.headers),
        ...(request.body === undefined
          ? {}
          : {
              body:
                typeof request.body === 'string'
                  ? this.#masker.body(request.body)
                  : `(${request.body.byteLength} bytes of ${request.headers['content-type'] ?? 'a body'})`,
            }),
      },
      response: {
        status: wire.status,
        headers: this.#masker.headers(wire.headers),
        body: this.#masker.body(wire.text),
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
 *   config: { url: fake.url, username: 'alice', password: { value: 'wonderland', sensitive: true } },
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
