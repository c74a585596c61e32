import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ConnectorError,
  createHandler,
  type Connector,
  type ConnectorHandler,
  type ConnectorResponse,
  type HandlerOptions,
} from '@connector-sdk/core';
import { BodyBudget, DEFAULT_BODY_LIMITS, knownCallers } from '@connector-sdk/core/internal';
import { Admission } from './admission.js';
import { NodeConnectorRequest, type NodeRequestOverrides } from './node-connector-request.js';
import { lingerThenClose, type LingerLimits } from './lingering-close.js';
import { BodyWatch, type BodyLimits } from './read-body.js';
import { INTERNAL_ERROR_RESPONSE, staticErrorResponse } from './static-error-response.js';
import { writeResponse } from './write-response.js';

/** Options of the node binding: the core handler's options plus body limits. */
export interface RequestListenerOptions extends HandlerOptions {
  /** Largest request body accepted, in bytes; larger ones get 413. @default 1_048_576 (1 MiB) */
  readonly bodyLimit?: number;
  /**
   * Longest time a request body may take to arrive, in milliseconds; slower ones get 408. One timer per handler
   * watches the bodies arriving, so the 408 comes between this time and a quarter of it later (at most a second
   * later). At least 1 (a smaller value throws a `TypeError`); `Infinity` turns the timeout off, which lets a
   * client hold a request open for as long as it sends nothing.
   *
   * @default 30_000
   */
  readonly bodyTimeoutMs?: number;
  /**
   * Longest time a request body may take to send its first bytes once its head has come, in milliseconds;
   * a body that sends none gets 408. It is also how long a body may pause while holding part of
   * `maxBodyBytesInFlight` that another body needs: past it, the paused body gets 408 and the other one goes
   * on. At least 1; capped at `bodyTimeoutMs`.
   *
   * @default 5_000
   */
  readonly bodyFirstBytesTimeoutMs?: number;
  /**
   * Most bytes of request bodies being read at once, over all requests. A body holds what has arrived of it
   * plus a read ahead of at most 64 KiB (never more than its declared `Content-Length`), so a declared length
   * costs nothing until its bytes come. When a body needs more than is left, bodies holding part of it without
   * sending are refused first (408: those that sent nothing yet, then those paused for
   * `bodyFirstBytesTimeoutMs`); only when none is stalled does the body asking get `503 SERVICE_UNAVAILABLE`, a
   * temporary refusal: slow clients cannot make the process hold hundreds of megabytes until their 408s.
   *
   * @default 67_108_864 (64 MiB)
   */
  readonly maxBodyBytesInFlight?: number;
  /**
   * After answering a request whose body was not read (too large, too slow, or not needed), how long the
   * connection keeps reading and discarding what the client still sends before it closes, in milliseconds.
   * Closing at once would reset a connection the client is still writing to, and a client that writes its
   * whole body before reading would lose the answer; this is the lingering close servers use.
   *
   * @default 5_000
   */
  readonly lingerTimeoutMs?: number;
  /** Most bytes discarded during that lingering close; past it the connection is cut. @default 67_108_864 (64 MiB) */
  readonly lingerMaxBytes?: number;
  /**
   * Most requests in progress at once, over all connections: from the moment a request is taken up until its
   * answer is handed to the connection. When none is left for a request, a request whose body is still
   * arriving and was asked for over 250 ms ago makes room for it (`408 REQUEST_TIMEOUT`: the oldest that sent
   * nothing, else one paused, else the oldest arriving; a stranger's only for a stranger); only when there is
   * none is the request answered `503 SERVICE_UNAVAILABLE` at once, without running any connector code. Each connection has one request in progress at a time: a request the client
   * sends before it has the previous answer (HTTP pipelining) waits, unread further, until that answer is sent;
   * a connection with more than 8 such requests waiting is closed once the answers before them are sent, and the
   * rest are never answered (the client sends them again on a new connection, as RFC 9112 asks of a client that
   * pipelines).
   *
   * @default 1_000
   */
  readonly maxRequestsInFlight?: number;
  /**
   * How many of the `maxRequestsInFlight` places only known callers may take: requests whose session this
   * connector sealed, and requests from an `initializeFrom` network. Strangers (anyone without such a session,
   * which includes every initialize when `initializeFrom` is not set) may fill the rest; past it they get
   * `503 SERVICE_UNAVAILABLE` while the platform's later calls go on. The session is verified at admission only
   * once nothing but these places is left. From 0 (keep none) to `maxRequestsInFlight - 1`.
   *
   * @default a tenth of `maxRequestsInFlight`, rounded down
   */
  readonly requestsKeptForKnownCallers?: number;
}

const DONE = Promise.resolve();
/**
 * How long a body may have been arriving before a newcomer that finds no request place may take its place:
 * as the connection pool spares a new connection, a request whose body is on its way is spared this long.
 */
const PLACE_GRACE_MS = 250;
const CLOSE = Object.freeze({ connection: 'close' });
const TOO_MANY_REQUESTS = staticErrorResponse(
  new ConnectorError(
    'SERVICE_UNAVAILABLE',
    'The connector has too many requests in progress; try again shortly',
  ),
);

/** How one request is served: the handler and the binding's limits, and what a framework knows of it. */
interface Serving {
  readonly handle: ConnectorHandler;
  readonly limits: BodyLimits;
  readonly linger: LingerLimits;
  readonly overrides: NodeRequestOverrides | undefined;
  readonly closing: (() => boolean) | undefined;
  /** Where the request's place is given back once it is answered. */
  readonly admission: Admission;
}

/**
 * Serves one admitted request with a core handler, writes the answer and gives its place back. It never
 * rejects: a failure to write the answer destroys the response. One async function rather than a `then` with
 * two closures after it: a promise and two functions less on every request.
 */
async function handleNodeRequest(
  request: IncomingMessage,
  response: ServerResponse,
  options: Serving,
): Promise<void> {
  const socket = request.socket;
  let connectorRequest: NodeConnectorRequest | undefined;
  let answer: ConnectorResponse;
  try {
    connectorRequest = new NodeConnectorRequest(request, response, options);
    answer = await options.handle(connectorRequest);
  } catch {
    answer = INTERNAL_ERROR_RESPONSE;
  }
  try {
    // A body we stopped reading, or never read and not yet all here, is not read into memory: the connection
    // closes after the answer rather than draining it until the request timeout, and gracefully, so that a
    // client still sending can read it (`lingerThenClose`).
    const unread = connectorRequest?.bodyAbandoned === true || !request.complete;
    writeResponse(response, answer, unread || options.closing?.() === true ? CLOSE : undefined);
    if (unread) lingerThenClose(request, response, options.linger);
  } catch {
    response.destroy();
  } finally {
    options.admission.release(socket);
  }
}

/**
 * Serves requests with a connector on Node: translates each request, reads its body within limits, fires the
 * handler's `AbortSignal` when the client goes away, and writes the answer. It never rejects.
 */
export type NodeHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  overrides?: NodeRequestOverrides,
) => Promise<void>;

/**
 * Creates the node binding's request handler, for frameworks built on `node:http` (the Express binding uses
 * it). Most users want {@link createRequestListener} or {@link serve}.
 *
 * @param connector - a connector made with `defineConnector`
 * @param options - core handler options, body size limit and body timeout
 * @returns a function serving one request, with optional overrides from the framework
 * @example
 * ```ts
 * const handle = createNodeHandler(connector);
 * server.on('request', (req, res) => void handle(req, res));
 * ```
 */
export function createNodeHandler(
  connector: Connector,
  options: RequestListenerOptions = {},
): NodeHandler {
  return nodeHandler(connector, options, undefined);
}

/**
 * {@link createNodeHandler}, told by `closing` whether the server is shutting down: answers written then ask
 * the client to close the connection. `serve` uses it instead of tracking every response.
 *
 * @internal
 */
export function nodeHandler(
  connector: Connector,
  options: RequestListenerOptions,
  closing: (() => boolean) | undefined,
): NodeHandler {
  const handle = createHandler(connector, options);
  const timeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_LIMITS.timeoutMs;
  const limits: BodyLimits = {
    maxBytes: options.bodyLimit ?? DEFAULT_BODY_LIMITS.maxBytes,
    timeoutMs,
    inFlight: new BodyBudget(options.maxBodyBytesInFlight ?? DEFAULT_BODY_LIMITS.maxBytesInFlight),
    watch: new BodyWatch(
      timeoutMs,
      options.bodyFirstBytesTimeoutMs ?? DEFAULT_BODY_LIMITS.firstBytesTimeoutMs,
    ),
  };
  const linger: LingerLimits = {
    ms: options.lingerTimeoutMs ?? DEFAULT_BODY_LIMITS.lingerMs,
    bytes: options.lingerMaxBytes ?? DEFAULT_BODY_LIMITS.lingerBytes,
  };
  const maxInFlight = options.maxRequestsInFlight ?? 1_000;
  const known = knownCallers(handle);
  const isKnown =
    known && ((request: IncomingMessage) => known(request.headers, request.socket.remoteAddress));
  // A body's owner is its request (see read-body.ts); one whose caller is not known is a stranger's.
  const strangersBody = (owner: unknown) => !isKnown?.(owner as IncomingMessage);
  const admission = new Admission({
    max: maxInFlight,
    lingerMs: linger.ms,
    kept: options.requestsKeptForKnownCallers,
    known: isKnown,
    makeRoom: (strangersOnly) =>
      limits.watch.refuseForPlace(PLACE_GRACE_MS, strangersOnly ? strangersBody : undefined),
  });
  // Made once: a framework's overrides are the only part that differs from one request to the next.
  const serving: Serving = { handle, limits, linger, overrides: undefined, closing, admission };
  const start = (
    request: IncomingMessage,
    response: ServerResponse,
    overrides: NodeRequestOverrides | undefined,
  ): Promise<void> => {
    if (!admission.take(request)) {
      const unread = !request.complete;
      writeResponse(response, TOO_MANY_REQUESTS, unread ? CLOSE : undefined);
      if (unread) lingerThenClose(request, response, linger);
      return DONE;
    }
    return handleNodeRequest(
      request,
      response,
      overrides === undefined ? serving : { handle, limits, linger, overrides, closing, admission },
    );
  };
  return (request, response, overrides) =>
    // Node gives a response its connection at once, unless an answer before it on the connection is unfinished.
    response.socket !== null
      ? start(request, response, overrides)
      : admission.queue(request, response, () => start(request, response, overrides));
}
