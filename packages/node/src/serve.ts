import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { ConnectorError, type Connector } from '@connector-sdk/core';
import { isClosing } from './admission.js';
import { ConnectionPool } from './connection-pool.js';
import { nodeHandler, type RequestListenerOptions } from './handle-node-request.js';
import { lingerThenClose } from './lingering-close.js';
import { staticErrorResponse } from './static-error-response.js';
import { writeResponse } from './write-response.js';

/** Options of {@link serve}. */
export interface ServeOptions extends RequestListenerOptions {
  /** Port to listen on; 0 picks a free one. @default 3000 */
  readonly port?: number;
  /** Address to listen on. @default '127.0.0.1' */
  readonly host?: string;
  /**
   * Longest time a request head may take to arrive, in milliseconds: for a connection's first request counted
   * from the moment it opened, so it also closes connections that send nothing (answered 408). Lower it to drop
   * such connections sooner; at `maxConnections` they make room for new ones anyway.
   *
   * @default 30_000
   */
  readonly headersTimeoutMs?: number;
  /** Longest time a whole request may take to arrive, in milliseconds. @default 60_000 */
  readonly requestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open, in milliseconds. @default 5_000 */
  readonly keepAliveTimeoutMs?: number;
  /** How long {@link ConnectorServer.close} waits for in-flight requests before cutting them off. @default 10_000 */
  readonly shutdownTimeoutMs?: number;
  /**
   * Most connections open at once, so that idle or slow clients cannot hold the process's sockets and memory
   * without bound. At the cap a new connection makes room: the oldest connection that has not sent a whole
   * request head yet is closed, else the one whose request body is still to come and that has sent the least,
   * else the newest one idle between keep-alive requests, each spared for its first 250 ms while older ones can
   * make room; so sockets that send nothing, or heads whose bodies never come, can never keep the platform out.
   * The choice is made once the pending reads of the turn have been handled, so a new connection whose request
   * head has arrived is never taken for a silent one. When every connection has a request in flight, a new
   * connection from another address closes the newest connection of an address that holds more
   * than half the places (its answer is lost; the client may send it again): one address cannot keep every
   * other out, while a reverse proxy's connections, all from one address, never close each other. Else the new
   * one is refused: its request is answered `503 SERVICE_UNAVAILABLE` and it is closed (within a second if it
   * sends none). Raise it, and the process's file limit (`ulimit -n`), for a platform that keeps more
   * connections open; behind a reverse proxy, keep the proxy's pool of connections to the connector under it.
   *
   * @default 1_000
   * @example
   * ```ts
   * await serve(connector, { port: 3000, maxConnections: 4_000 }); // with `ulimit -n 8192`
   * ```
   */
  readonly maxConnections?: number;
  /**
   * Longest time an answer may wait for the client to take any of it, in milliseconds: a connection whose
   * client has read none of its answer for this long is closed, so a client that asks and never reads cannot
   * hold the answer's memory and its connection's place. A client that reads slowly but steadily is never cut.
   * The check runs every `sendTimeoutMs / 4` (at most every second), so a connection closes between this time
   * and a quarter of it later.
   *
   * @default 30_000
   */
  readonly sendTimeoutMs?: number;
}

/** A running connector server. */
export interface ConnectorServer {
  /** The underlying Node server. */
  readonly server: Server;
  /** The port it listens on. */
  readonly port: number;
  /** Its base URL, such as `http://127.0.0.1:3000`. */
  readonly url: string;
  /**
   * Stops accepting connections, lets in-flight requests finish (up to `shutdownTimeoutMs`), then closes.
   * Safe to call more than once.
   */
  close(): Promise<void>;
}

const CLIENT_ERRORS: Record<string, ConnectorError> = {
  HPE_HEADER_OVERFLOW: new ConnectorError('HEADERS_TOO_LARGE', 'The request headers are too large'),
  ERR_HTTP_REQUEST_TIMEOUT: new ConnectorError(
    'REQUEST_TIMEOUT',
    'The request did not arrive in time',
  ),
};
const BAD_REQUEST = new ConnectorError('BAD_REQUEST', 'The request is not valid HTTP');
const TOO_MANY_CONNECTIONS = staticErrorResponse(
  new ConnectorError(
    'SERVICE_UNAVAILABLE',
    'The connector has too many open connections; try again shortly',
  ),
);
/** How long a connection past `maxConnections` may wait before its request, and what of its body is discarded. */
const OVER_CAP_LINGER = Object.freeze({ ms: 1_000, bytes: 1024 * 1024 });
/** How often, while shutting down, connections that fell idle are closed. */
const IDLE_SWEEP_MS = 50;
const NO_HOST = staticErrorResponse(
  new ConnectorError('BAD_REQUEST', 'An HTTP/1.1 request must have a Host header'),
);

/** Answers a request Node could not parse with a contract body instead of Node's bare text. */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A connection that pipelined past the bound: what was left of its last read is not parsed, and its end is
  // arranged after the answers it is owed. Once they are sent, what still comes ends it.
  if (isClosing(socket)) {
    if (!socket.writable) socket.destroy();
    return;
  }
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const connectorError = CLIENT_ERRORS[error.code ?? ''] ?? BAD_REQUEST;
  const { status, body } = staticErrorResponse(connectorError);
  socket.end(
    `HTTP/1.1 ${status} ${connectorError.code.replaceAll('_', ' ')}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * Starts an HTTP server for a connector on `host:port`, with header, request and body timeouts, contract
 * bodies even for requests Node cannot parse, and graceful shutdown.
 *
 * @param connector - a connector made with `defineConnector`
 * @param options - address, timeouts, body limit and core handler options
 * @returns the running server
 * @example
 * ```ts
 * const running = await serve(connector, { port: Number(process.env.PORT ?? 3000) });
 * process.once('SIGTERM', () => void running.close());
 * ```
 */
export async function serve(
  connector: Connector,
  options: ServeOptions = {},
): Promise<ConnectorServer> {
  const host = options.host ?? '127.0.0.1';
  let closing: Promise<void> | undefined;
  // Answers written once shutting down ask the client to close the connection: asked when each answer is
  // written, rather than by tracking every response in flight, which costs a listener per request.
  const handle = nodeHandler(connector, options, () => closing !== undefined);
  const headersTimeout = options.headersTimeoutMs ?? 30_000;
  const pool = new ConnectionPool(options.maxConnections ?? 1_000, OVER_CAP_LINGER.ms);
  const server = createServer(
    {
      headersTimeout,
      // Node checks these timeouts only every `connectionsCheckingInterval` (30 s by default).
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(headersTimeout / 4))),
      requestTimeout: options.requestTimeoutMs ?? 60_000,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 5_000,
      // Node would answer a missing Host with a bare 400; it is answered below with a contract body instead.
      requireHostHeader: false,
    },
    (request, response) => {
      if (!pool.heard(request.socket)) {
        writeResponse(response, TOO_MANY_CONNECTIONS, { connection: 'close' });
        if (!request.complete) lingerThenClose(request, response, OVER_CAP_LINGER);
        return;
      }
      // RFC 9112 §3.2: a server must answer 400 to an HTTP/1.1 request without Host.
      if (request.httpVersion === '1.1' && request.headers.host === undefined) {
        writeResponse(response, NO_HOST, { connection: 'close' });
        return;
      }
      void handle(request, response);
    },
  );
  server.on('clientError', answerClientError);
  // Counted here rather than with Node's `server.maxConnections`, which drops a connection past it without a
  // word: the client would see a reset instead of a contract answer (ARCHITECTURE.md, D15).
  server.on('connection', (socket: Socket) => pool.admit(socket));

  const sendTimeout = options.sendTimeoutMs ?? 30_000;
  if (!(sendTimeout >= 1)) throw new TypeError('sendTimeoutMs must be at least 1');
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Answers nobody takes: looked at every quarter of the time they may wait (ARCHITECTURE.md, D26).
  const stallSweep = setInterval(
    () => pool.closeStalled(sendTimeout),
    Math.min(1_000, Math.ceil(sendTimeout / 4)),
  );
  stallSweep.unref();
  server.once('close', () => clearInterval(stallSweep));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;

  return {
    server,
    port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(
          () => server.closeAllConnections(),
          options.shutdownTimeoutMs ?? 10_000,
        );
        timer.unref();
        // A connection whose answer was already on its way when shutdown began stays open for more requests
        // once that answer is written: close connections as they fall idle. Not while any answer's bytes are
        // still queued: Node takes a connection whose answer has ended for idle, and would cut that answer off.
        const sweep = setInterval(() => {
          if (!pool.sending()) server.closeIdleConnections();
        }, IDLE_SWEEP_MS);
        sweep.unref();
        server.close(() => {
          clearTimeout(timer);
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
