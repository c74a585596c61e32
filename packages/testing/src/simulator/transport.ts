import {
  createHandler,
  type Connector,
  type ConnectorHandler,
  type HandlerOptions,
} from '@connector-sdk/core';

/** A request as the simulator puts it on the wire. */
export interface WireRequest {
  /** HTTP method, upper-case. */
  readonly method: string;
  /** Path from the server's root, prefix and version included, percent-encoded. */
  readonly path: string;
  /** Query parameters. */
  readonly query: Readonly<Record<string, string>>;
  /** Request headers. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as sent, if any: text, or bytes (a multipart upload). */
  readonly body?: string | Uint8Array;
}

/** A response as the simulator received it, before any check. */
export interface WireResponse {
  /** HTTP status. */
  readonly status: number;
  /** Response headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text. */
  readonly text: string;
}

/** Sends one request to the connector under test. */
export type Transport = (request: WireRequest) => Promise<WireResponse>;

/**
 * The connector under test: the base URL of a running connector (scheme, host, port; the simulator adds the
 * prefix and version), a core handler, or a connector made with `defineConnector` (served in-process).
 */
export type ConnectorTarget = string | URL | ConnectorHandler | Connector;

/** How a {@link ConnectorTarget} is reached. */
export interface TransportOptions {
  /** Handler options when the target is a connector. @default `{ validateAnswers: true }` */
  readonly handlerOptions?: HandlerOptions;
  /** Most time one HTTP call may take before the simulator gives up on it. @default 30_000 */
  readonly requestTimeoutMs?: number;
}

function isConnector(target: ConnectorTarget): target is Connector {
  return typeof target === 'object' && !(target instanceof URL) && 'compiled' in target;
}

/**
 * A request's path and its whole query: a query written into the path (`/items?text=x`) comes first, then the
 * `query` parameters, as one URL would carry them. Both transports read a request the same way.
 */
function splitTarget(request: WireRequest): {
  readonly path: string;
  readonly query: URLSearchParams;
} {
  const mark = request.path.indexOf('?');
  const query = new URLSearchParams(mark === -1 ? '' : request.path.slice(mark + 1));
  for (const [name, value] of Object.entries(request.query)) query.append(name, value);
  return { path: mark === -1 ? request.path : request.path.slice(0, mark), query };
}

function urlFor(base: string, request: WireRequest): string {
  const { path, query } = splitTarget(request);
  const search = query.toString();
  return `${base}${path}${search === '' ? '' : `?${search}`}`;
}

function httpTransport(base: string, timeoutMs: number): Transport {
  const root = base.replace(/\/+$/, '');
  return async (request) => {
    const response = await fetch(urlFor(root, request), {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      text: await response.text(),
    };
  };
}

function handlerTransport(handle: ConnectorHandler): Transport {
  return async (request) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers))
      headers[name.toLowerCase()] = value;
    const { path, query } = splitTarget(request);
    const response = await handle({
      method: request.method,
      path,
      query,
      headers,
      text: () =>
        Promise.resolve(
          typeof request.body === 'string' || request.body === undefined
            ? (request.body ?? '')
            : Buffer.from(request.body).toString('utf8'),
        ),
      bytes: async function* bytes() {
        if (request.body !== undefined)
          yield typeof request.body === 'string' ? Buffer.from(request.body) : request.body;
      },
    });
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers))
      responseHeaders[name.toLowerCase()] = value;
    // A streamed answer (a file's content) is read whole, as a client on the wire would.
    const text = response.stream ? await new Response(response.stream).text() : response.body;
    return { status: response.status, headers: responseHeaders, text };
  };
}

/** What the kit's in-process handlers may reach besides public addresses: this machine's loopback. */
const TEST_LOOPBACK = ['127.0.0.0/8', '::1', 'localhost'];

/**
 * Makes the function that sends requests to a target: over HTTP with `fetch` for a URL, in-process for a
 * handler or a connector.
 *
 * @param target - the connector under test
 * @param options - handler options and the HTTP timeout
 * @returns the transport
 * @internal
 */
export function createTransport(
  target: ConnectorTarget,
  options: TransportOptions = {},
): Transport {
  if (typeof target === 'string' || target instanceof URL)
    return httpTransport(String(target), options.requestTimeoutMs ?? 30_000);
  if (isConnector(target))
    // Answers are checked against the shapes operations declare, unless the options say otherwise.
    return handlerTransport(
      createHandler(target, {
        validateAnswers: true,
        // Test end systems (the kit's fake, a local server) live on loopback: the kit opts in to it, and to
        // nothing else; production handlers reach public addresses only unless their operator says otherwise.
        egress: { allow: TEST_LOOPBACK },
        ...options.handlerOptions,
      }),
    );
  return handlerTransport(target);
}
